import type { FinalReceiptKind } from '../protocol.ts';

/**
 * What a tool runner keeps about one call it claimed (docs/client.md, "Browser tools"), written
 * before each step so a reloaded page knows how far the call got:
 * - `claimed`: the claim is held; the handler has not started, so it may still run;
 * - `running`: stored just before the handler ran: it may have had effects, it never runs again;
 * - `final`: the handler's outcome, kept until the server acknowledged it;
 * - `unknown`: the handler ended without a confirmed outcome; the call needs reconciliation.
 */
export interface ToolReceipt {
  toolCallId: string;
  runId: string;
  name: string;
  args: unknown;
  argsDigest: string;
  state: 'claimed' | 'running' | 'final' | 'unknown';
  /** The sequence the next receipt gets (`accepted` is 0). */
  sequence: number;
  /** The id of the `accepted` receipt, the same on every retry. */
  acceptedReceiptId: string;
  /** The last progress this page reported. */
  progress?: { receiptId: string; sequence: number; message?: string; fraction?: number };
  /** The outcome to deliver, once the handler ended with one. */
  final?: FinalReceipt;
  /** Epoch ms of the last write. */
  updatedAt: number;
}

/** A final receipt as it is stored and (unchanged, on every retry) sent. */
export interface FinalReceipt {
  receiptId: string;
  sequence: number;
  kind: FinalReceiptKind;
  /** `completed`: the handler's result, as JSON would carry it. */
  result?: unknown;
  /** `failed`/`cancelled`: the reason, safe to show. */
  message?: string;
}

/**
 * Where a tool runner keeps its receipts and its executor id. Every page that shares a store
 * (tabs of one browser profile with the IndexedDB store) shares its executor id, so `create` is
 * atomic across them and `withLock` keeps two of them from driving one call.
 */
export interface ToolReceiptStore {
  /** Stores `receipt` unless one for its call exists; false then. */
  create(receipt: ToolReceipt): Promise<boolean>;
  get(toolCallId: string): Promise<ToolReceipt | undefined>;
  put(receipt: ToolReceipt): Promise<void>;
  delete(toolCallId: string): Promise<void>;
  /** Every stored receipt (a reloaded page finishes them). */
  list(): Promise<ToolReceipt[]>;
  /** The executor id kept with the store, made with `create` the first time. */
  executorId(create: () => string): Promise<string>;
  /**
   * Runs `task` holding the lock `name` for every page sharing the store; resolves null at once,
   * without running it, when another holder has it.
   */
  withLock<T>(name: string, task: () => Promise<T>): Promise<{ value: T } | null>;
  /** Releases what the store holds open (a database connection); optional. */
  close?(): void;
}

/**
 * Creates the default store: in this page's memory only, so nothing is written anywhere and a
 * reload forgets it (the new page then sees its old claims as another executor's).
 */
export function createMemoryReceiptStore(): ToolReceiptStore {
  const receipts = new Map<string, ToolReceipt>();
  let executorId: string | null = null;
  return {
    create: async (receipt) => {
      if (receipts.has(receipt.toolCallId)) return false;
      receipts.set(receipt.toolCallId, structuredClone(receipt));
      return true;
    },
    get: async (toolCallId) => {
      const receipt = receipts.get(toolCallId);
      return receipt === undefined ? undefined : structuredClone(receipt);
    },
    put: async (receipt) => {
      receipts.set(receipt.toolCallId, structuredClone(receipt));
    },
    delete: async (toolCallId) => {
      receipts.delete(toolCallId);
    },
    list: async () => [...receipts.values()].map((receipt) => structuredClone(receipt)),
    executorId: async (create) => (executorId ??= create()),
    withLock: createPageLocks(),
  };
}

/**
 * Creates locks that hold within this page only (for a store no other page shares): `withLock`
 * semantics, a name held by a running task answers null at once.
 */
export function createPageLocks(): ToolReceiptStore['withLock'] {
  const held = new Set<string>();
  return async (name, task) => {
    if (held.has(name)) return null;
    held.add(name);
    try {
      return { value: await task() };
    } finally {
      held.delete(name);
    }
  };
}
