/** The public API of the reference server: the fetch handler and its Node adapter, the agent loop, models and tools. */
export { createAgentFetchHandler } from './create-agent-fetch-handler.ts';
export type { AgentConnection, AgentFetchHandler, AgentFetchHandlerOptions } from './create-agent-fetch-handler.ts';
export { createAgentHandler } from './create-agent-handler.ts';
export type { AgentHandler, AgentHandlerOptions } from './create-agent-handler.ts';
export type { AgentHandlerStats, AgentServerOptions } from './agent-server-options.ts';
export { createAgentHttpServer, DEFAULT_HTTP_SERVER_LIMITS } from './http/create-agent-http-server.ts';
export type { AgentHttpServerOptions } from './http/create-agent-http-server.ts';
export type { CorsOptions } from './http/cors.ts';
export { createRunEngine } from './agent-loop/create-run-engine.ts';
export type { EngineTexts } from './agent-loop/engine-texts.ts';
export { DEFAULT_ENGINE_LIMITS } from './agent-loop/engine-options.ts';
export type {
  EngineLimits,
  EngineLogEntry,
  RunEngineOptions,
  ToolCallInfo,
  ToolCallOutcome,
  ToolHookContext,
  ToolHookDecision,
  ToolHooks,
} from './agent-loop/engine-options.ts';
export { createScriptedModel } from './models/scripted-model.ts';
export type { ScriptedModelOptions } from './models/scripted-model.ts';
export { createOpenAiCompatibleModel } from './models/openai-compatible-model.ts';
export type { OpenAiCompatibleModelOptions } from './models/openai-compatible-model.ts';
export { createModelFromEnv } from './models/create-model-from-env.ts';
export { fromAiSdk, reasoningProviderOptions } from './models/ai-sdk-model.ts';
export type { McpHttpServer, McpPolicyOverride, McpServerConfig, McpStdioServer } from './mcp/mcp-options.ts';
export type {
  AiSdkCallOptions,
  AiSdkJsonValue,
  AiSdkLanguageModel,
  AiSdkProviderOptions,
  FromAiSdkOptions,
} from './models/ai-sdk-model.ts';
export { ModelError } from './models/model-adapter.ts';
export type { ModelAdapter, ModelChunk, ModelMessage, ModelRequest, ToolSpec } from './models/model-adapter.ts';
export { ToolError, ToolOutcomeUnknownError, ToolStoppedError, createToolRegistry } from './tools/tool-registry.ts';
export type {
  ToolApprovalContext,
  ToolApprovalTexts,
  ToolDefinition,
  ToolPolicy,
  ToolRunContext,
} from './tools/tool-registry.ts';
export { endRun, propose, showWidget } from './tools/tool-outcomes.ts';
export { createRenderWidgetTool, RENDER_WIDGET_TOOL_NAME } from './widgets/render-widget-tool.ts';
export { readWidget, digestWidget } from './widgets/read-widget.ts';
export type { WidgetInit, ReadWidgetOptions, ReadWidgetResult } from './widgets/read-widget.ts';
export type { ProposalInit, WriteProposal } from './tools/tool-outcomes.ts';
export { createDemoTools } from './tools/demo-tools.ts';
export { createDemoDraftFolders } from './tools/demo-drafts.ts';
export type { DemoDraft, DemoDraftFolders, DemoDraftFoldersOptions } from './tools/demo-drafts.ts';
export { EventLogConflictError } from './runs/event-log.ts';
export { createMemoryStorage } from './storage/memory-storage.ts';
export { openSqliteStorage } from './storage/sqlite-storage.ts';
export type { SqliteStorageOptions } from './storage/sqlite-storage.ts';
export { openRedisStorage } from './storage/open-redis-storage.ts';
export type { OpenRedisStorageOptions } from './storage/open-redis-storage.ts';
export { createPostgresStorage, migratePostgresStorage } from './storage/postgres/postgres-storage.ts';
export type { PostgresStorageOptions } from './storage/postgres/postgres-storage.ts';
export type { PostgresPool } from './storage/postgres/postgres-pool.ts';
export { IdempotencyLockLostError } from './storage/storage-port.ts';
export { createMemoryAttachmentStore } from './attachments/memory-attachment-store.ts';
export { openDirectoryAttachmentStore } from './attachments/directory-attachment-store.ts';
export type { DirectoryAttachmentStoreOptions } from './attachments/directory-attachment-store.ts';
export type { AttachmentStore, StoredAttachment } from './attachments/attachment-store.ts';
export type { AttachmentCaps } from './attachments/upload-admission.ts';
export type {
  AgentStorage,
  DeleteSessionOutcome,
  ShowBranchOutcome,
  StoredRun,
  StoredSession,
  TitleUpdateOutcome,
} from './storage/storage-port.ts';
export { RunClosedError } from './runs/run-handle.ts';
export type { RunEngine, RunHandle, Subject } from './runs/run-handle.ts';
export type { SuggestSessionTitle } from './runs/session-titles.ts';
export type { ObservabilityOptions } from './observability/create-observability.ts';
export type { MetricsOptions } from './observability/metrics-options.ts';
export type { ReadinessReport } from './observability/check-readiness.ts';
export type { LogLevel, LogRecord, LogSink } from './observability/structured-log.ts';
export type { ModelCallObservation, RunObserver } from './observability/run-observer.ts';
export { createAgUiEngine } from './ag-ui/create-ag-ui-engine.ts';
export type { AgUiEngineOptions } from './ag-ui/create-ag-ui-engine.ts';
export { createAgUiModel } from './ag-ui/ag-ui-model.ts';
export type { AgUiModelOptions } from './ag-ui/ag-ui-model.ts';
