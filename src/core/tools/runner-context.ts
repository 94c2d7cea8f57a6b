import type { AgentClientHandle } from '../client/agent-client-types.ts';
import type { ToolRunnerPhase } from '../client/client-state.ts';
import type { Clock } from '../clock.ts';
import type { ToolReceiptStore } from './receipt-store.ts';
import type { BrowserToolCall, ToolRunnerDiagnostic, ToolRunnerOptions } from './tool-runner-types.ts';

/** What the parts of one tool runner share. */
export interface RunnerContext {
  client: AgentClientHandle;
  options: ToolRunnerOptions;
  store: ToolReceiptStore;
  clock: Clock;
  ids: () => string;
  executorId: string;
  isRevoked(): boolean;
  /** Moves the call's phase in the runner's view. */
  setPhase(toolCallId: string, phase: ToolRunnerPhase): void;
  /** Tells `onDiagnostic` (a throwing callback is ignored). */
  diagnose(call: BrowserToolCall, state: ToolRunnerDiagnostic): void;
  /** The abort of each handler running now, by call id (Stop, the server's cancel, revoke). */
  running: Map<string, AbortController>;
  /** Connects (again) the executor with its tools. */
  connect(): Promise<void>;
}
