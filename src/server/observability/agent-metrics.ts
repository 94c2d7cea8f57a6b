import type * as PromClient from 'prom-client';
import { requireOptionalPeer } from '../optional-peer.ts';
import type { MetricsGauges, MetricsOptions } from './metrics-options.ts';

/** The handler's instruments, all in one registry of its own (several handlers in a process never clash). */
export interface AgentMetrics {
  registry: PromClient.Registry;
  runsStarted: PromClient.Counter;
  runsFinished: PromClient.Counter<'outcome'>;
  runErrors: PromClient.Counter<'code'>;
  runDuration: PromClient.Histogram<'outcome'>;
  timeToFirstToken: PromClient.Histogram;
  modelCalls: PromClient.Counter<'model' | 'outcome'>;
  modelCallDuration: PromClient.Histogram<'model' | 'outcome'>;
  modelTokens: PromClient.Counter<'model' | 'kind'>;
  toolCalls: PromClient.Counter<'tool' | 'status'>;
  toolCallDuration: PromClient.Histogram<'tool' | 'status'>;
  approvals: PromClient.Counter<'decision'>;
  approvalWait: PromClient.Histogram<'decision'>;
  httpRequests: PromClient.Counter<'method' | 'route' | 'status'>;
  httpRequestDuration: PromClient.Histogram<'method' | 'route'>;
  httpRefused: PromClient.Counter<'code' | 'limit'>;
  storageDuration: PromClient.Histogram<'operation' | 'outcome'>;
}

const FAST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const MODEL_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120];
const RUN_BUCKETS = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 900, 1800];
const WAIT_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 900, 1800, 3600];

/** Loads `prom-client` (an optional peer dependency) only when a handler turns metrics on. */
function loadPromClient(): typeof PromClient {
  return requireOptionalPeer<typeof PromClient>('prom-client', 'metrics: true');
}

/** Creates the handler's metrics in a new registry (never prom-client's global one). */
export function createAgentMetrics(gauges: MetricsGauges, options: MetricsOptions = {}): AgentMetrics {
  const prom = loadPromClient();
  const registry = new prom.Registry();
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]): PromClient.Counter<L> =>
    new prom.Counter({ name, help, labelNames, registers });
  const histogram = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: number[],
  ): PromClient.Histogram<L> => new prom.Histogram({ name, help, labelNames, buckets, registers });
  new prom.Gauge({
    name: 'agent_chat_sse_streams',
    help: 'Event streams open right now.',
    registers,
    collect() {
      this.set(gauges.streams());
    },
  });
  new prom.Gauge({
    name: 'agent_chat_http_requests_in_flight',
    help: 'Requests in progress, open event streams included.',
    registers,
    collect() {
      this.set(gauges.requests());
    },
  });
  if (options.processMetrics !== false) prom.collectDefaultMetrics({ register: registry });
  return {
    registry,
    runsStarted: counter('agent_chat_runs_started_total', 'Runs started in this process.', []),
    runsFinished: counter('agent_chat_runs_finished_total', 'Runs ended, by outcome.', ['outcome']),
    runErrors: counter('agent_chat_run_errors_total', 'Runs ended with RUN_ERROR, by code.', ['code']),
    runDuration: histogram(
      'agent_chat_run_duration_seconds',
      'From RUN_STARTED to the terminal event.',
      ['outcome'],
      RUN_BUCKETS,
    ),
    timeToFirstToken: histogram(
      'agent_chat_time_to_first_token_seconds',
      'From RUN_STARTED to the first text or reasoning delta.',
      [],
      MODEL_BUCKETS,
    ),
    modelCalls: counter('agent_chat_model_calls_total', 'Model attempts, by model and outcome.', ['model', 'outcome']),
    modelCallDuration: histogram(
      'agent_chat_model_call_duration_seconds',
      'One model attempt, request to end of stream.',
      ['model', 'outcome'],
      MODEL_BUCKETS,
    ),
    modelTokens: counter('agent_chat_model_tokens_total', 'Tokens the provider reported, by model and kind.', [
      'model',
      'kind',
    ]),
    toolCalls: counter('agent_chat_tool_calls_total', 'Tool calls with a result, by tool and status.', [
      'tool',
      'status',
    ]),
    toolCallDuration: histogram(
      'agent_chat_tool_call_duration_seconds',
      'From the call being ready to run (arguments complete, approval given) to its result.',
      ['tool', 'status'],
      MODEL_BUCKETS,
    ),
    approvals: counter('agent_chat_approvals_total', 'Approvals answered, by decision.', ['decision']),
    approvalWait: histogram(
      'agent_chat_approval_wait_seconds',
      'From the approval being asked to its answer.',
      ['decision'],
      WAIT_BUCKETS,
    ),
    httpRequests: counter('agent_chat_http_requests_total', 'Requests answered, by route template and status.', [
      'method',
      'route',
      'status',
    ]),
    httpRequestDuration: histogram(
      'agent_chat_http_request_duration_seconds',
      'From the request to the end of its answer (an event stream: its whole life).',
      ['method', 'route'],
      FAST_BUCKETS,
    ),
    httpRefused: counter('agent_chat_http_refused_total', 'Requests answered with a problem, by code and limit.', [
      'code',
      'limit',
    ]),
    storageDuration: histogram(
      'agent_chat_storage_operation_duration_seconds',
      'One storage port call, by operation and outcome.',
      ['operation', 'outcome'],
      FAST_BUCKETS,
    ),
  };
}
