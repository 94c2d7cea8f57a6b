import type { ToolReceipt, ToolReceiptStore } from '../core/index.ts';
import { createPageLocks } from '../core/index.ts';

/** Options of {@link openIndexedDbReceiptStore}. */
export interface IndexedDbReceiptStoreOptions {
  /** The database name; one per identity (`mountToolRunner` uses `agent-chat-tools:<identityId>`). */
  name: string;
  /** Default `globalThis.indexedDB`. */
  indexedDB?: IDBFactory;
  /** Default `navigator.locks` (Web Locks); without it locks hold within this page only. */
  locks?: LockManager;
}

const RECEIPTS = 'receipts';
const META = 'meta';
const EXECUTOR_ID_KEY = 'executorId';

/**
 * Opens the IndexedDB receipt store (docs/client.md, "Browser tools"): receipts and the executor
 * id survive a reload and are shared by every tab of the browser profile, so the executor id is
 * stable per profile; `create` is atomic across tabs (an `add` that fails on an existing key) and
 * `withLock` is a Web Lock, released when its page goes. Opt-in: nothing is written to IndexedDB
 * unless a host opens this store. The database opens on first use.
 */
export function openIndexedDbReceiptStore(options: IndexedDbReceiptStoreOptions): ToolReceiptStore {
  const factory = options.indexedDB ?? globalThis.indexedDB;
  const locks = options.locks ?? globalThis.navigator?.locks;
  const pageLocks = createPageLocks();
  let opened: Promise<IDBDatabase> | null = null;
  const database = (): Promise<IDBDatabase> =>
    (opened ??= new Promise((resolve, reject) => {
      const request = factory.open(options.name, 1);
      request.onupgradeneeded = () => {
        request.result.createObjectStore(RECEIPTS, { keyPath: 'toolCallId' });
        request.result.createObjectStore(META);
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    }));

  /** Runs `work` in one transaction and resolves with its request's result once the transaction commits. */
  async function transact<T>(
    names: string | string[],
    mode: IDBTransactionMode,
    work: (transaction: IDBTransaction) => IDBRequest<T> | null,
  ): Promise<T | undefined> {
    const db = await database();
    return new Promise((resolve, reject) => {
      const transaction = db.transaction(names, mode);
      const request = work(transaction);
      transaction.oncomplete = () => resolve(request?.result);
      // A failed request (an `add` of an existing key) aborts the transaction: its error is the cause.
      transaction.onerror = () => reject(request?.error ?? transaction.error);
      transaction.onabort = () => reject(request?.error ?? transaction.error);
    });
  }

  return {
    async create(receipt) {
      try {
        await transact(RECEIPTS, 'readwrite', (transaction) => transaction.objectStore(RECEIPTS).add(receipt));
        return true;
      } catch (error) {
        if (error instanceof DOMException && error.name === 'ConstraintError') return false;
        throw error;
      }
    },
    get: (toolCallId) =>
      transact<ToolReceipt>(RECEIPTS, 'readonly', (transaction) => transaction.objectStore(RECEIPTS).get(toolCallId)),
    async put(receipt) {
      await transact(RECEIPTS, 'readwrite', (transaction) => transaction.objectStore(RECEIPTS).put(receipt));
    },
    async delete(toolCallId) {
      await transact(RECEIPTS, 'readwrite', (transaction) => transaction.objectStore(RECEIPTS).delete(toolCallId));
    },
    async list() {
      return (await transact<ToolReceipt[]>(RECEIPTS, 'readonly', (t) => t.objectStore(RECEIPTS).getAll())) ?? [];
    },
    async executorId(create) {
      // One transaction: the first tab to get here writes the id, every later one reads it.
      let id: string | undefined;
      await transact(META, 'readwrite', (transaction) => {
        const meta = transaction.objectStore(META);
        const read = meta.get(EXECUTOR_ID_KEY);
        read.onsuccess = () => {
          id = typeof read.result === 'string' ? read.result : create();
          if (read.result !== id) meta.put(id, EXECUTOR_ID_KEY);
        };
        return null;
      });
      if (id === undefined) throw new Error('The executor id could not be read from IndexedDB.');
      return id;
    },
    async withLock(name, task) {
      if (locks === undefined) return pageLocks(name, task);
      return locks.request(name, { ifAvailable: true }, async (lock) =>
        lock === null ? null : { value: await task() },
      );
    },
    close() {
      void opened?.then((db) => db.close()).catch(() => undefined);
    },
  };
}
