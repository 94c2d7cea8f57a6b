import { createMemoryAgUiStorage } from './memory/memory-ag-ui.ts';
import { createMemoryFeedbackStorage } from './memory/memory-feedback.ts';
import { createMemoryIdempotencyStorage } from './memory/memory-idempotency.ts';
import { createMemoryRetentionStorage } from './memory/memory-retention.ts';
import { createMemoryRunLeaseStorage } from './memory/memory-run-leases.ts';
import { createMemoryRunStorage } from './memory/memory-runs.ts';
import { createMemorySessionStorage } from './memory/memory-sessions.ts';
import { createMemorySettingStorage } from './memory/memory-settings.ts';
import { createMemoryState } from './memory/memory-state.ts';
import type { AgentStorage } from './storage-port.ts';

/**
 * Creates the in-memory {@link AgentStorage}: one process, nothing survives it. For unit tests
 * and `AGENT_CHAT_DB=:memory:`; it passes the same contract suite as the durable stores. Its roles
 * (`memory/`) share one `MemoryState`.
 */
export function createMemoryStorage(): AgentStorage {
  const state = createMemoryState();
  return {
    ...createMemoryRunStorage(state),
    ...createMemorySessionStorage(state),
    ...createMemoryRetentionStorage(state),
    ...createMemoryIdempotencyStorage(state),
    ...createMemoryRunLeaseStorage(state),
    ...createMemoryAgUiStorage(state),
    ...createMemoryFeedbackStorage(state),
    ...createMemorySettingStorage(state),
    async close() {},
  };
}
