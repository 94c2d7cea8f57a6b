import type { AttachmentLimits } from '../../core/protocol.ts';
import { refuse } from '../domain-error.ts';
import { createByteBudget } from '../limits/byte-budget.ts';
import type { ByteBudget } from '../limits/byte-budget.ts';
import { createSlotCounter } from '../limits/slot-counter.ts';
import { STORAGE_FULL_RETRY_AFTER_MS } from '../storage/storage-full.ts';
import type { AttachmentStore, StoredAttachment } from './attachment-store.ts';

/**
 * What uploads may take of this process and of the store (docs/server.md, "Attachments"): server
 * settings, not published. The per-identity ones are in `limits` (`AttachmentLimits`).
 */
export interface AttachmentCaps {
  /** Uploads being received at once in this process; past it `503 AGENT_UNAVAILABLE`. */
  maxUploads: number;
  /** The same per network client; past it `429 RATE_LIMITED`. */
  maxUploadsPerClient: number;
  /** The same per identity, from however many clients; past it `429 RATE_LIMITED`. */
  maxUploadsPerIdentity: number;
  /** Bytes one network client may upload per hour; past it `429 RATE_LIMITED`. */
  attachmentBytesPerHourPerClient: number;
  /** Bytes the whole store may hold; past it `503 STORAGE_FULL`. */
  maxAttachmentStoreBytes: number;
  /** Bytes left free on the store's disk (a store with `freeBytes`); below it `503 STORAGE_FULL`. */
  minFreeDiskBytes: number;
}

/** Options of {@link createUploadAdmission}. */
export interface UploadAdmissionOptions {
  store: AttachmentStore;
  limits: Pick<AttachmentLimits, 'maxAttachmentBytes' | 'maxAttachmentBytesPerIdentity' | 'attachmentBytesPerHour'>;
  caps: AttachmentCaps;
  now: () => number;
  /** The `Retry-After` of a refusal for uploads at once. */
  capacityRetryAfterMs: number;
}

/** One admitted upload: its slots, its reserved bytes and the bytes charged to its hourly budgets. */
export interface UploadTicket {
  /** Ends the upload: `storedBytes` were kept (0 when it failed), `receivedBytes` were read. */
  end(outcome: { storedBytes: number; receivedBytes: number }): Promise<void>;
}

/** Admits uploads before their body is read, and keeps the store's byte count. */
export interface UploadAdmission {
  /**
   * Admits an upload of `bytes` (the declared length, or `maxAttachmentBytes` when none was
   * declared) or throws: uploads at once per client, per identity and in all; the owner's quota
   * with what it holds and is uploading; the store's cap and its disk's floor; the hourly bytes of
   * the client and of the identity. Checks and reservation are one step per owner, so two uploads
   * at once cannot both pass a quota only one fits in.
   */
  admit(upload: { ownerId: string; identityId: string; client: string; bytes: number }): Promise<UploadTicket>;
  /** Sets the store's byte count from a full listing (the sweep's). */
  recount(files: readonly StoredAttachment[]): void;
  /** Takes a deleted file's bytes off the count. */
  removed(bytes: number): void;
  /** Whether room is short: the store past 80 % of its cap, or its disk below twice its floor. */
  isRoomShort(): Promise<boolean>;
  /** Forgets hourly budgets that have refilled. */
  sweep(): void;
}

/** How the core names a network client it cannot name (`unnamed:<requestId>`, a key of its own). */
const UNNAMED_CLIENT = 'unnamed:';

/** Above this share of `maxAttachmentStoreBytes` the sweep deletes unsent uploads sooner. */
const SHORT_ROOM_SHARE = 0.8;

/** Creates the {@link UploadAdmission} of one handler (all counts are of this process). */
export function createUploadAdmission(options: UploadAdmissionOptions): UploadAdmission {
  const { store, limits, caps } = options;
  const budgets = { attachmentBytesPerHour: limits.attachmentBytesPerHour, ...caps };
  for (const name of ['attachmentBytesPerHour', 'attachmentBytesPerHourPerClient'] as const) {
    if (!(budgets[name] >= limits.maxAttachmentBytes)) {
      throw new RangeError(
        `createAgentHandler: ${name} (${budgets[name]}) must be at least maxAttachmentBytes (${limits.maxAttachmentBytes}), or no file that size could ever be uploaded.`,
      );
    }
  }
  const clock = { now: options.now };
  const perClient = createSlotCounter({ maxPerKey: caps.maxUploadsPerClient, maxTotal: caps.maxUploads });
  const perIdentity = createSlotCounter({ maxPerKey: caps.maxUploadsPerIdentity, maxTotal: Number.POSITIVE_INFINITY });
  const clientBytes = createByteBudget({ bytesPerHour: caps.attachmentBytesPerHourPerClient, clock });
  const identityBytes = createByteBudget({ bytesPerHour: limits.attachmentBytesPerHour, clock });
  const reservedByOwner = new Map<string, number>();
  let reservedInAll = 0;
  // Bytes the store holds, counted once from its listing, then kept up to date (recounted by each sweep).
  let storeBytes: number | null = null;
  let counting: Promise<number> | null = null;
  const countStore = async (): Promise<number> => {
    if (storeBytes !== null) return storeBytes;
    counting ??= store.list().then(sumOfSizes);
    try {
      storeBytes ??= await counting;
    } finally {
      counting = null;
    }
    return storeBytes;
  };
  const ownerQueue = createKeyedQueue();

  const reserve = (ownerId: string, bytes: number): void => {
    reservedByOwner.set(ownerId, (reservedByOwner.get(ownerId) ?? 0) + bytes);
    reservedInAll += bytes;
  };
  const unreserve = (ownerId: string, bytes: number): void => {
    const left = (reservedByOwner.get(ownerId) ?? bytes) - bytes;
    if (left <= 0) reservedByOwner.delete(ownerId);
    else reservedByOwner.set(ownerId, left);
    reservedInAll -= bytes;
  };

  const takeSlots = (client: string, identityId: string): (() => void) => {
    const releaseClient = perClient.take(client);
    if (releaseClient === 'total_full') {
      return refuse({
        code: 'AGENT_UNAVAILABLE',
        detail: 'The server is receiving as many files as it can; retry shortly.',
        retryAfterMs: options.capacityRetryAfterMs,
        details: { reason: 'capacity', limit: 'maxUploads', maxUploads: caps.maxUploads },
      });
    }
    if (releaseClient === 'key_full') return refuseAtOnce('maxUploadsPerClient', 'your network');
    const releaseIdentity = perIdentity.take(identityId);
    if (typeof releaseIdentity !== 'function') {
      releaseClient();
      return refuseAtOnce('maxUploadsPerIdentity', 'your account');
    }
    return () => {
      releaseIdentity();
      releaseClient();
    };
  };
  const refuseAtOnce = (limit: 'maxUploadsPerClient' | 'maxUploadsPerIdentity', whose: string): never =>
    refuse({
      code: 'RATE_LIMITED',
      detail: `Too many files at once from ${whose} (at most ${caps[limit]}); retry shortly.`,
      retryAfterMs: options.capacityRetryAfterMs,
      details: { limit, [limit]: caps[limit] },
    });
  const refuseRoom = (limit: 'maxAttachmentStoreBytes' | 'minFreeDiskBytes'): never =>
    refuse({
      code: 'STORAGE_FULL',
      detail: 'The server has no room for more files right now; retry later.',
      retryAfterMs: STORAGE_FULL_RETRY_AFTER_MS,
      details: { limit },
    });
  const takeBytes = (budget: ByteBudget, key: string, bytes: number, limit: string, max: number): void => {
    const decision = budget.take(key, bytes);
    if (decision.isAllowed) return;
    refuse({
      code: 'RATE_LIMITED',
      detail: `Too many bytes of files (at most ${max} an hour); try again in ${Math.ceil(decision.retryAfterMs / 1000)} s.`,
      retryAfterMs: decision.retryAfterMs,
      details: { limit, [limit]: max },
    });
  };

  return {
    async admit({ ownerId, identityId, client, bytes }) {
      // A client nobody could name is a key of its own per request: its hour would bind nothing.
      const isNamed = !client.startsWith(UNNAMED_CLIENT);
      const releaseSlots = takeSlots(client, identityId);
      try {
        await ownerQueue.run(ownerId, async () => {
          const held = sumOfSizes(await store.list(ownerId)) + (reservedByOwner.get(ownerId) ?? 0);
          const counted = await countStore();
          const free = await store.freeBytes?.();
          // From here on nothing is awaited: the checks and the reservation are one step.
          const inStore = storeBytes ?? counted;
          if (held + bytes > limits.maxAttachmentBytesPerIdentity) {
            refuse({
              code: 'ATTACHMENT_QUOTA_EXCEEDED',
              detail: `Your files may take at most ${limits.maxAttachmentBytesPerIdentity} bytes; delete a conversation to make room.`,
              details: {
                limit: 'maxAttachmentBytesPerIdentity',
                maxAttachmentBytesPerIdentity: limits.maxAttachmentBytesPerIdentity,
                heldBytes: held,
              },
            });
          }
          if (inStore + reservedInAll + bytes > caps.maxAttachmentStoreBytes) refuseRoom('maxAttachmentStoreBytes');
          if (free !== undefined && free - reservedInAll - bytes < caps.minFreeDiskBytes)
            refuseRoom('minFreeDiskBytes');
          if (isNamed) {
            const max = caps.attachmentBytesPerHourPerClient;
            takeBytes(clientBytes, client, bytes, 'attachmentBytesPerHourPerClient', max);
          }
          try {
            takeBytes(identityBytes, identityId, bytes, 'attachmentBytesPerHour', limits.attachmentBytesPerHour);
          } catch (error) {
            if (isNamed) clientBytes.refund(client, bytes);
            throw error;
          }
          reserve(ownerId, bytes);
        });
      } catch (error) {
        releaseSlots();
        throw error;
      }
      let isEnded = false;
      return {
        async end({ storedBytes, receivedBytes }) {
          if (isEnded) return;
          isEnded = true;
          if (storeBytes !== null) storeBytes += storedBytes;
          const unused = bytes - receivedBytes;
          if (unused > 0) {
            if (isNamed) clientBytes.refund(client, unused);
            identityBytes.refund(identityId, unused);
          }
          try {
            // Behind any check of the owner under way, which counted these bytes as reserved.
            await ownerQueue.run(ownerId, async () => unreserve(ownerId, bytes));
          } finally {
            releaseSlots();
          }
        },
      };
    },
    recount(files) {
      storeBytes = sumOfSizes(files);
    },
    removed(bytes) {
      if (storeBytes !== null) storeBytes = Math.max(0, storeBytes - bytes);
    },
    async isRoomShort() {
      if ((await countStore()) > caps.maxAttachmentStoreBytes * SHORT_ROOM_SHARE) return true;
      const free = await store.freeBytes?.();
      return free !== undefined && free < caps.minFreeDiskBytes * 2;
    },
    sweep() {
      clientBytes.sweep();
      identityBytes.sweep();
    },
  };
}

function sumOfSizes(files: readonly StoredAttachment[]): number {
  return files.reduce((sum, file) => sum + file.size, 0);
}

/** Runs tasks one after another per key (in this process); a key with nothing queued is forgotten. */
function createKeyedQueue(): { run<T>(key: string, task: () => Promise<T>): Promise<T> } {
  // The last task of each key, settled either way (a failed task does not stop the next).
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(key, task) {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(task);
      const tail = result.catch(() => undefined);
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
  };
}
