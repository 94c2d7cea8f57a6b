import type { EventEnvelope } from '../../core/protocol.ts';
import type { SendCommand } from './redis-script.ts';

/** A connection of its own, for one group's `XREAD BLOCK`. */
export interface BlockingConnection {
  send: SendCommand;
  close(): void;
}

/** Options of {@link createRedisTails}. */
export interface RedisTailsOptions {
  /** Sends a command on the shared connection to the node holding `key` (priming reads, `CLIENT UNBLOCK`). */
  send: (key: string, args: string[]) => Promise<unknown>;
  /** Opens a connection of its own to the node holding `key`. */
  openConnection: (key: string) => Promise<BlockingConnection>;
  /**
   * The run's stream key and its slot's name (its shard's key base): the streams one `XREAD`
   * waits on share a slot, as Redis Cluster requires.
   */
  locate: (runId: string) => Promise<{ stream: string; slot: string }>;
  /** Runs one blocking connection waits on at most. */
  groupSize: number;
  onError: (error: unknown) => void;
}

/** The live tails of one process: doorbells fed by `XREAD BLOCK`, and what they already brought. */
export interface RedisTails {
  /** Calls `onWake(lastSeq)` after entries reach the run's stream, from any process. Returns the unsubscribe. */
  subscribe(runId: string, onWake: (lastSeq: number) => void): () => void;
  /**
   * Events after `afterSeq` (at most `limit`) that the run's tail already holds; null when it
   * holds none from there (read the stream). It may lag the stream: a ring brings the rest.
   */
  held(runId: string, afterSeq: number, limit: number): EventEnvelope[] | null;
  close(): void;
}

interface Tail {
  /** The run's stream key; '' until located. */
  key: string;
  /** The seq the tail has read up to; null until the first read of the stream. */
  lastSeq: number | null;
  listeners: Set<(lastSeq: number) => void>;
  /** The latest events, gapless, at most {@link HELD_EVENTS}. */
  held: EventEnvelope[];
  /** Null until located. */
  group: TailGroup | null;
}

interface TailGroup {
  tails: Set<Tail>;
  clientId: string | null;
  isReading: boolean;
  isUnblocking: boolean;
  /** The set of tails changed since the current `XREAD` was sent. */
  isStale: boolean;
  /** Resolves the wait of a group whose tails are all still being primed. */
  wake: (() => void) | null;
  /** The slot its streams share (a key in it). */
  slot: string;
}

const HELD_EVENTS = 256;
const ENTRIES_PER_READ = 500;

/**
 * Creates the tails (docs/server.md, "Redis"): each run with listeners in this process is read by
 * one `XREAD BLOCK 0` over a group of up to `groupSize` runs of one slot on a connection of the
 * group's own (to the node holding the slot), from the id it has read up to, so nothing appended
 * between two reads is missed (no pub/sub, no polling). A run is located (its stream and slot)
 * before it joins a group; one that joins a waiting group interrupts its read with `CLIENT UNBLOCK`.
 */
export function createRedisTails(options: RedisTailsOptions): RedisTails {
  const tails = new Map<string, Tail>();
  const byKey = new Map<string, Tail>();
  const groups = new Set<TailGroup>();
  const connections = new Set<BlockingConnection>();
  let isClosed = false;

  const ring = (tail: Tail): void => {
    const { lastSeq } = tail;
    if (lastSeq === null) return;
    for (const listener of [...tail.listeners]) listener(lastSeq);
  };

  const take = (tail: Tail, id: string, fields: unknown): void => {
    const seq = Number.parseInt(id, 10);
    if (tail.lastSeq !== null && seq <= tail.lastSeq) return;
    tail.lastSeq = seq;
    const json = Array.isArray(fields) ? fields[1] : undefined;
    if (typeof json !== 'string') return;
    const event = JSON.parse(json) as EventEnvelope;
    const last = tail.held[tail.held.length - 1];
    if (last !== undefined && last.seq !== seq - 1) tail.held = [];
    tail.held.push(event);
    if (tail.held.length > HELD_EVENTS) tail.held.splice(0, tail.held.length - HELD_EVENTS);
  };

  const interrupt = (group: TailGroup): void => {
    group.isStale = true;
    if (group.wake !== null) {
      const wake = group.wake;
      group.wake = null;
      wake();
      return;
    }
    if (!group.isReading || group.isUnblocking || group.clientId === null) return;
    group.isUnblocking = true;
    void unblock(group, group.clientId)
      .catch(options.onError)
      .finally(() => (group.isUnblocking = false));
  };

  // The XREAD may not have reached Redis yet (CLIENT UNBLOCK then finds nothing blocked): try again
  // until one unblocks it or it has returned by itself.
  const unblock = async (group: TailGroup, clientId: string): Promise<void> => {
    while (group.isReading && group.isStale && !isClosed) {
      if ((await options.send(group.slot, ['CLIENT', 'UNBLOCK', clientId])) === 1) return;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  };

  const deliver = (reply: unknown): void => {
    if (!Array.isArray(reply)) return;
    for (const stream of reply as unknown[]) {
      if (!Array.isArray(stream)) continue;
      const [key, entries] = stream as [unknown, unknown];
      const tail = typeof key === 'string' ? byKey.get(key) : undefined;
      if (tail === undefined || !Array.isArray(entries)) continue;
      for (const entry of entries as unknown[]) {
        if (Array.isArray(entry) && typeof entry[0] === 'string') take(tail, entry[0], entry[1]);
      }
      ring(tail);
    }
  };

  const read = async (group: TailGroup, connection: BlockingConnection): Promise<void> => {
    group.clientId ??= String(await connection.send(['CLIENT', 'ID']));
    const ready = [...group.tails].filter((tail) => tail.lastSeq !== null);
    if (ready.length === 0) {
      await new Promise<void>((resolve) => (group.wake = resolve));
      return;
    }
    group.isStale = false;
    group.isReading = true;
    try {
      const streams = [...ready.map((tail) => tail.key), ...ready.map((tail) => `${tail.lastSeq}-0`)];
      deliver(await connection.send(['XREAD', 'COUNT', String(ENTRIES_PER_READ), 'BLOCK', '0', 'STREAMS', ...streams]));
    } finally {
      group.isReading = false;
    }
  };

  const runGroup = async (group: TailGroup): Promise<void> => {
    // Opened before the first look at the group's tails: the run that started the group joins it
    // right after this call.
    let connection: BlockingConnection | null = await options.openConnection(group.slot);
    connections.add(connection);
    try {
      while (!isClosed && group.tails.size > 0) {
        try {
          if (connection === null) {
            connection = await options.openConnection(group.slot);
            connections.add(connection);
          }
          await read(group, connection);
        } catch (error) {
          if (isClosed) return;
          // A failed read opens a connection again (on a cluster, to the node that holds the slot
          // now); the next read resumes from the last ids.
          options.onError(error);
          group.clientId = null;
          if (connection !== null) {
            connections.delete(connection);
            connection.close();
            connection = null;
          }
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    } finally {
      if (connection !== null) {
        connections.delete(connection);
        connection.close();
      }
    }
  };

  const joinGroup = (tail: Tail, slot: string): TailGroup => {
    let group = [...groups].find((candidate) => candidate.slot === slot && candidate.tails.size < options.groupSize);
    if (group === undefined) {
      group = {
        tails: new Set(),
        clientId: null,
        isReading: false,
        isUnblocking: false,
        isStale: false,
        wake: null,
        slot,
      };
      groups.add(group);
      const started = group;
      void runGroup(started).catch((error: unknown) => {
        groups.delete(started);
        if (!isClosed) options.onError(error);
      });
    }
    group.tails.add(tail);
    return group;
  };

  // The first read starts at the stream's last entry (a reader subscribes before it reads, so it
  // sees everything up to there), then rings once so readers re-read with the tail in place.
  // It is located first (its stream and slot), then joins a group of its slot.
  const prime = async (runId: string, tail: Tail): Promise<void> => {
    const { stream, slot } = await options.locate(runId);
    if (tails.get(runId) !== tail || isClosed) return;
    tail.key = stream;
    byKey.set(stream, tail);
    tail.group = joinGroup(tail, slot);
    const reply = await options.send(stream, ['XREVRANGE', stream, '+', '-', 'COUNT', '1']);
    const [entry] = Array.isArray(reply) ? (reply as unknown[]) : [];
    if (Array.isArray(entry) && typeof entry[0] === 'string') take(tail, entry[0], entry[1]);
    tail.lastSeq ??= 0;
    interrupt(tail.group);
    ring(tail);
  };

  const leave = (runId: string, tail: Tail): void => {
    tails.delete(runId);
    byKey.delete(tail.key);
    const { group } = tail;
    if (group === null) return;
    group.tails.delete(tail);
    if (group.tails.size > 0) return;
    groups.delete(group);
    interrupt(group);
  };

  return {
    subscribe(runId, onWake) {
      let tail = tails.get(runId);
      if (tail === undefined) {
        const created: Tail = { key: '', lastSeq: null, listeners: new Set(), held: [], group: null };
        tail = created;
        tails.set(runId, created);
        void prime(runId, created).catch(options.onError);
      }
      const subscribed = tail;
      subscribed.listeners.add(onWake);
      return () => {
        subscribed.listeners.delete(onWake);
        if (subscribed.listeners.size === 0 && tails.get(runId) === subscribed) leave(runId, subscribed);
      };
    },
    held(runId, afterSeq, limit) {
      const held = tails.get(runId)?.held ?? [];
      const first = held[0];
      if (first === undefined || afterSeq + 1 < first.seq) return null;
      const start = afterSeq + 1 - first.seq;
      return held.slice(start, start + limit);
    },
    close() {
      isClosed = true;
      for (const group of groups) group.wake?.();
      for (const connection of connections) connection.close();
      connections.clear();
      groups.clear();
      tails.clear();
      byKey.clear();
    },
  };
}
