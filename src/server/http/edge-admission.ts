import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { isTerminalRunStatus } from '../../core/protocol.ts';
import type { RunSnapshot } from '../../core/protocol.ts';
import type { Clock } from '../../core/clock.ts';
import type { SlotCounter } from '../limits/slot-counter.ts';
import type { LoadMonitor } from './load-monitor.ts';
import { createNewcomerGate } from '../limits/newcomer-gate.ts';
import { createSlotCounter } from '../limits/slot-counter.ts';
import { ProblemError } from './problem-error.ts';

/** What the edge lets in at once, in all and per network client (docs/server.md, "Overload"). */
export interface EdgeLimits {
  /** Requests served at once, open streams included; past it `503`. */
  maxConnections: number;
  /** The same per network client; past it `429`. */
  maxConnectionsPerClient: number;
  /** Request bodies being read at once per network client; past it `429`. */
  maxBodiesPerClient: number;
  /** Request bodies being read at once per identity, from however many clients; past it `429`. */
  maxBodiesPerIdentity: number;
  /** Open event streams (protocol and AG-UI) in all; past it `503`. */
  maxStreams: number;
  /** The same per network client; past it `429`. */
  maxStreamsPerClient: number;
  /** Runs created here and not ended, in all; past it a new run is shed with `503`. */
  maxLiveRuns: number;
  /** The same per network client; past it `429`. */
  maxLiveRunsPerClient: number;
  /**
   * Runs past `maxLiveRuns` that only a network client holding none may start, after waiting
   * `newClientWaitMs` without asking for another run meanwhile (its first gets in).
   */
  newClientRunReserve: number;
  /**
   * How long a create of a client holding no run waits before it takes a reserved run; a client
   * sending another create meanwhile (a flood's many at once) gets `503` for all of them.
   */
  newClientWaitMs: number;
  /** Creates waiting that way at once; past it `503`. */
  maxWaitingNewClients: number;
  /**
   * Runs waiting (for an approval, a browser tool or an input) that give their live-run slot back
   * while they wait, in all; a wait past it keeps its live slot.
   */
  maxParkedRuns: number;
  /** The same per network client. */
  maxParkedRunsPerClient: number;
  /**
   * Event loop utilisation (0..1) at which new runs are shed with `503` while it lasts (two
   * windows of 500 ms); above 1 turns it off.
   */
  shedAtEventLoopUtilization: number;
  /** The `Retry-After` of every refusal here. */
  retryAfterMs: number;
}

/**
 * A run slot taken before a create: held until the run ends once it exists, else given back.
 * While the run waits (`awaiting_input`, `awaiting_tool`) it holds a parked slot instead, when
 * one is free, and takes its live slot again when it goes on.
 */
export interface RunSlot {
  /** Keeps the slot until `record`'s run has ended. */
  holdUntilEnd(record: { waitFor(predicate: (snapshot: RunSnapshot) => boolean): Promise<RunSnapshot> }): void;
  /** Gives the slot back unless {@link holdUntilEnd} kept it. */
  release(): void;
}

/** How much of each kind is held right now. */
export interface EdgeAdmissionStats {
  requests: number;
  bodies: number;
  streams: number;
  runs: number;
  /** Runs waiting that hold a parked slot instead of a live one. */
  parkedRuns: number;
}

/** The handler's admission control: every limit of {@link EdgeLimits}, each refusal a coded problem. */
export interface EdgeAdmission {
  /**
   * Admits a request of `client` or throws (`503` past `maxConnections`, `429` past
   * `maxConnectionsPerClient`). Its slot is released exactly once, by whichever comes first: the
   * response's `finish` or `close`, its socket's `close` (a pipelined response queued behind
   * another gets neither event once the client is gone), or the returned function, which the
   * handler calls when it is done with the request.
   */
  admitRequest(req: IncomingMessage, res: ServerResponse, client: string): () => void;
  /** Admits a request of `client` that has no socket here (the fetch handler's); the caller releases it. */
  admit(client: string): () => void;
  /**
   * Holds a body slot of `client` and one of `identityId` while its body is read, or throws `429`
   * (past `maxBodiesPerClient` or `maxBodiesPerIdentity`).
   */
  holdBody(client: string, identityId: string): () => void;
  /** Holds a stream slot of `client` while a stream route runs, or throws (`503`, `429`). */
  holdStream(client: string): () => void;
  /**
   * Takes a run slot of `client` before a create, or rejects (`503` shedding: saturated or full;
   * `429`). Past `maxLiveRuns` a client holding no run waits `newClientWaitMs` for a reserved one.
   */
  reserveRun(client: string): Promise<RunSlot>;
  stats(): EdgeAdmissionStats;
}

type Kind = 'connections' | 'bodies' | 'streams' | 'liveRuns';

/** What a run's status changes are read from. */
type FollowedRun = Parameters<RunSlot['holdUntilEnd']>[0];

const PARKED_STATUSES: readonly RunSnapshot['status'][] = ['awaiting_input', 'awaiting_tool'];
const isParked = (snapshot: RunSnapshot): boolean => PARKED_STATUSES.includes(snapshot.status);
const isEnded = (snapshot: RunSnapshot): boolean => isTerminalRunStatus(snapshot.status);

const LIMIT_NAMES: Record<Kind, { total: keyof EdgeLimits; perClient: keyof EdgeLimits; what: string }> = {
  connections: { total: 'maxConnections', perClient: 'maxConnectionsPerClient', what: 'requests at once' },
  bodies: { total: 'maxConnections', perClient: 'maxBodiesPerClient', what: 'request bodies at once' },
  streams: { total: 'maxStreams', perClient: 'maxStreamsPerClient', what: 'open streams' },
  liveRuns: { total: 'maxLiveRuns', perClient: 'maxLiveRunsPerClient', what: 'running answers' },
};

/** What {@link createEdgeAdmission} reads besides its limits. */
export interface EdgeAdmissionDependencies {
  /** New runs are shed while it says so. */
  load: Pick<LoadMonitor, 'isOverloaded'>;
  /** Times the newcomers' wait. */
  clock: Pick<Clock, 'setTimeout'>;
}

/** Creates the {@link EdgeAdmission} of one handler (all counts are of this process). */
export function createEdgeAdmission(limits: EdgeLimits, dependencies: EdgeAdmissionDependencies): EdgeAdmission {
  const { load, clock } = dependencies;
  const counters: Record<Kind, SlotCounter> = {
    connections: createSlotCounter({ maxPerKey: limits.maxConnectionsPerClient, maxTotal: limits.maxConnections }),
    // Bodies are requests too, so `maxConnections` already bounds them in all.
    bodies: createSlotCounter({ maxPerKey: limits.maxBodiesPerClient, maxTotal: Number.POSITIVE_INFINITY }),
    streams: createSlotCounter({ maxPerKey: limits.maxStreamsPerClient, maxTotal: limits.maxStreams }),
    liveRuns: createSlotCounter({
      maxPerKey: limits.maxLiveRunsPerClient,
      maxTotal: limits.maxLiveRuns,
      reserveForNewKeys: limits.newClientRunReserve,
    }),
  };
  // Past maxLiveRuns the reserve goes to clients asking for one run, not to one asking for many.
  const newcomers = createNewcomerGate({
    waitMs: limits.newClientWaitMs,
    maxWaiting: limits.maxWaitingNewClients,
    clock,
  });
  // A waiting run costs no model call and little memory, so it counts here instead of liveRuns.
  const parkedRuns = createSlotCounter({
    maxPerKey: limits.maxParkedRunsPerClient,
    maxTotal: limits.maxParkedRuns,
  });
  /**
   * Holds the run's slot until it ends: a parked slot while it waits (when one is free, else its
   * live slot stays), a live one again when it goes on, even past the caps (it was admitted).
   */
  const followUntilEnd = async (record: FollowedRun, client: string, releaseLive: () => void): Promise<void> => {
    let releaseHeld = releaseLive;
    try {
      for (;;) {
        const waiting = await record.waitFor((snapshot) => isEnded(snapshot) || isParked(snapshot));
        if (isEnded(waiting)) return;
        const parked = parkedRuns.take(client);
        const isMoved = typeof parked === 'function';
        if (isMoved) {
          releaseHeld();
          releaseHeld = parked;
        }
        const going = await record.waitFor((snapshot) => isEnded(snapshot) || !isParked(snapshot));
        if (isMoved) {
          releaseHeld();
          releaseHeld = () => undefined;
          if (isEnded(going)) return;
          releaseHeld = counters.liveRuns.takeAnyway(client);
        }
      }
    } finally {
      releaseHeld();
    }
  };
  // One identity signing in from many clients must not hold every body slot either.
  const bodiesPerIdentity = createSlotCounter({
    maxPerKey: limits.maxBodiesPerIdentity,
    maxTotal: Number.POSITIVE_INFINITY,
  });
  // The unreleased requests of each socket, released together when it closes.
  const openBySocket = new WeakMap<Socket, Set<() => void>>();

  const take = (kind: Kind, client: string): (() => void) => {
    const taken = counters[kind].take(client);
    if (typeof taken === 'function') return taken;
    throw refusal(kind, taken, limits);
  };

  const trackSocket = (socket: Socket, release: () => void): void => {
    let open = openBySocket.get(socket);
    if (open === undefined) {
      const created = new Set<() => void>();
      open = created;
      openBySocket.set(socket, created);
      socket.once('close', () => {
        for (const pending of [...created]) pending();
      });
    }
    open.add(release);
  };

  return {
    admitRequest(req, res, client) {
      const releaseSlot = take('connections', client);
      const socket = req.socket as Socket | undefined;
      const release = (): void => {
        releaseSlot();
        if (socket !== undefined) openBySocket.get(socket)?.delete(release);
        res.off('finish', release);
        res.off('close', release);
      };
      res.once('finish', release);
      res.once('close', release);
      if (socket !== undefined) {
        if (socket.destroyed) queueMicrotask(release);
        else trackSocket(socket, release);
      }
      return release;
    },
    admit: (client) => take('connections', client),
    holdBody(client, identityId) {
      const releaseClient = take('bodies', client);
      const releaseIdentity = bodiesPerIdentity.take(identityId);
      if (typeof releaseIdentity !== 'function') {
        releaseClient();
        const max = limits.maxBodiesPerIdentity;
        throw new ProblemError({
          code: 'RATE_LIMITED',
          detail: `Too many request bodies at once from your account (at most ${max}); retry shortly.`,
          retryAfterMs: limits.retryAfterMs,
          details: { limit: 'maxBodiesPerIdentity', maxBodiesPerIdentity: max },
        });
      }
      return () => {
        releaseIdentity();
        releaseClient();
      };
    },
    holdStream: (client) => take('streams', client),
    async reserveRun(client) {
      if (load.isOverloaded()) {
        throw new ProblemError({
          code: 'AGENT_UNAVAILABLE',
          detail: 'The server is overloaded; retry shortly.',
          retryAfterMs: limits.retryAfterMs,
          details: {
            reason: 'overloaded',
            limit: 'shedAtEventLoopUtilization',
            shedAtEventLoopUtilization: limits.shedAtEventLoopUtilization,
          },
        });
      }
      const total = counters.liveRuns.total();
      // Only a create that would take a reserved run waits; with none left it is refused at once.
      const isForReserve =
        total >= limits.maxLiveRuns &&
        total < limits.maxLiveRuns + limits.newClientRunReserve &&
        counters.liveRuns.held(client) === 0;
      if (isForReserve && !(await newcomers.pass(client))) throw refusal('liveRuns', 'total_full', limits);
      const release = take('liveRuns', client);
      let isHeld = false;
      return {
        holdUntilEnd(record) {
          isHeld = true;
          followUntilEnd(record, client, release).catch(release);
        },
        release() {
          if (!isHeld) release();
        },
      };
    },
    stats: () => ({
      requests: counters.connections.total(),
      bodies: counters.bodies.total(),
      streams: counters.streams.total(),
      runs: counters.liveRuns.total(),
      parkedRuns: parkedRuns.total(),
    }),
  };
}

/** `503 AGENT_UNAVAILABLE` when the server is full (load shedding), `429 RATE_LIMITED` when the client is. */
function refusal(kind: Kind, reason: 'key_full' | 'total_full', limits: EdgeLimits): ProblemError {
  const names = LIMIT_NAMES[kind];
  if (reason === 'total_full') {
    const max = limits[names.total];
    return new ProblemError({
      code: 'AGENT_UNAVAILABLE',
      detail: 'The server is at capacity; retry shortly.',
      retryAfterMs: limits.retryAfterMs,
      details: { reason: 'capacity', limit: names.total, [names.total]: max },
    });
  }
  const max = limits[names.perClient];
  return new ProblemError({
    code: 'RATE_LIMITED',
    detail: `Too many ${names.what} from your network (at most ${max}); retry shortly.`,
    retryAfterMs: limits.retryAfterMs,
    details: { limit: names.perClient, [names.perClient]: max },
  });
}
