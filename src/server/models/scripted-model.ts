import type { Sleep } from '../../core/clock.ts';
import type { ReasoningEffort } from '../../core/protocol.ts';
import { createClockSleep, createSystemClock } from '../../core/clock.ts';
import type { ModelAdapter, ModelChunk, ModelMessage, ModelRequest, ModelToolCall } from './model-adapter.ts';
import { ModelError } from './model-adapter.ts';
import { buildContextReport } from './scripted-context-report.ts';
import { buildDefaultAnswer, buildLongMarkdown, CODE_ANSWER } from './scripted-markdown.ts';
import { describeShapes, isShapeName, parseObject, SHAPES, streamShape } from './scripted-shapes.ts';

/** The efforts the scripted model takes (the handler's default `models` offer the same). */
const SCRIPTED_REASONING_OPTIONS: readonly ReasoningEffort[] = ['low', 'medium', 'high'];

/** Options of {@link createScriptedModel}. */
export interface ScriptedModelOptions {
  /** Waits between deltas; inject a virtual one in tests. */
  sleep?: Sleep;
  /** Delay before each delta in ms (default 25, so the demo visibly streams). */
  delayMs?: number;
  /** How long `/slow` streams in ms (default 30 000). */
  slowDurationMs?: number;
  /** Delay between `/slow` deltas in ms (default 40). */
  slowDelayMs?: number;
}

/**
 * Creates the offline, deterministic model. The user's latest text picks the scenario: plain
 * text → reasoning then Markdown; `/echo <text>`; `/long <n>`; `/code`; `/slow`; `/tool`; `/approval`
 * (lists the user's drafts, then deletes the first after approval); `/progress`; `/loop`; `/length`
 * (an answer cut at the output limit); `/error` (fails retryably on attempt 1, succeeds on retry);
 * `/fail` (not retryable); `/context` (a table of the prompt layers and history it received);
 * `/call <tool> <json-args>` (calls any tool the run offers, server or browser, with those
 * arguments, then answers with its result; an unknown tool or arguments that are not a JSON
 * object get an answer saying so and the tools there are, instead of a call);
 * `/clienttool <name> <json-args>` (calls the run's browser tool `<name>` with those arguments,
 * then answers with its result); `/propose [bio]` (proposes a profile change, then answers with
 * what the user's Apply or Dismiss did); `/shape <name>` (the shapes real models stream, e.g. a call
 * with no text before it or parallel calls: `scripted-shapes.ts`; `/shape` alone lists them). The tool scenarios call the demo tools (`orders.lookup`,
 * `drafts.list`, `drafts.delete`, `report.generate`, `profile.propose`); a scenario whose tool the
 * run does not offer says so instead of calling it, and the default answer suggests only the
 * scenarios whose tools are offered. It takes the reasoning efforts `low`, `medium` and `high`.
 */
export function createScriptedModel(options: ScriptedModelOptions = {}): ModelAdapter {
  const sleep = options.sleep ?? createClockSleep(createSystemClock());
  const delayMs = options.delayMs ?? 25;
  const slowDelayMs = options.slowDelayMs ?? 40;
  const slowDurationMs = options.slowDurationMs ?? 30_000;

  return {
    id: 'scripted',
    label: 'Scripted (offline)',
    reasoningOptions: SCRIPTED_REASONING_OPTIONS,
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelChunk> {
      const turn = readTurn(request.messages);
      const [, command = '', rest = ''] = /^\/(\w+)\s*([\s\S]*)$/.exec(turn.text.trim()) ?? [];
      const offered = request.tools.map((tool) => tool.name);
      const shape = command === 'shape' ? rest.trim() : '';
      const scenario = isShapeName(shape) ? `shape ${shape}` : command;
      const needs = isShapeName(shape) ? SHAPES[shape].tools : SCENARIO_TOOLS[command];
      const missing = needs?.filter((name) => !offered.includes(name)) ?? [];
      let output = 0;
      async function* say(
        type: 'text' | 'reasoning',
        text: string,
        pieces = splitWords(text),
        wait = delayMs,
      ): AsyncGenerator<ModelChunk> {
        for (const delta of pieces) {
          await sleep(wait, signal);
          output += delta.length;
          yield { type, delta };
        }
      }
      const finish = (reason: 'stop' | 'tool_calls' | 'length'): ModelChunk[] => [
        {
          type: 'usage',
          usage: { modelId: 'scripted', inputTokens: estimate(request.messages), outputTokens: Math.ceil(output / 4) },
        },
        { type: 'finish', reason },
      ];
      const callTool = async function* (
        name: string,
        args: Record<string, unknown>,
        note: string,
      ): AsyncGenerator<ModelChunk> {
        yield* say('text', note);
        yield { type: 'tool_call', id: `call_${turn.toolRounds + 1}`, name, arguments: JSON.stringify(args) };
        yield* finish('tool_calls');
      };

      if (missing.length > 0) {
        yield* say('text', describeMissingTools(scenario, missing, offered));
        yield* finish('stop');
        return;
      }
      switch (command) {
        case 'shape':
          if (!isShapeName(shape)) {
            yield* say('text', describeShapes(shape));
            break;
          }
          yield* streamShape(shape, turn, request.attempt ?? 1, {
            say: (type, text) => say(type, text),
            pause: () => sleep(delayMs, signal),
            finish,
          });
          return;
        case 'echo':
          yield* say('text', rest, splitChars(rest, 4));
          break;
        case 'context':
          yield* say('text', buildContextReport(request));
          break;
        case 'long':
          yield* say('reasoning', 'A long answer was asked for, so I will write several Markdown sections.');
          yield* say('text', buildLongMarkdown(Number.parseInt(rest, 10) || 2000), undefined, delayMs / 4);
          break;
        case 'code':
          yield* say('text', CODE_ANSWER);
          break;
        case 'slow': {
          yield* say('reasoning', 'This answer streams slowly on purpose.');
          const count = Math.max(1, Math.round(slowDurationMs / slowDelayMs));
          const words = Array.from({ length: count }, (_, index) =>
            index % 12 === 11 ? 'slowly.\n\n' : `word${index + 1} `,
          );
          yield* say('text', '', words, slowDelayMs);
          break;
        }
        case 'approval': {
          // Like a real agent: list the user's drafts, then ask to delete one that exists.
          const [listed, deletion] = turn.toolResults;
          if (listed === undefined) {
            yield* say('reasoning', APPROVAL.reasoning);
            yield* callTool('drafts.list', {}, APPROVAL.listNote);
            return;
          }
          const draft = deletion === undefined ? firstDraft(listed) : null;
          if (draft !== null) {
            yield* callTool('drafts.delete', { draftId: draft.draftId }, APPROVAL.deleteNote(draft));
            return;
          }
          yield* say('text', deletion === undefined ? APPROVAL.noDraft : APPROVAL.answer(deletion, turn.toolCalls));
          break;
        }
        case 'tool':
        case 'progress': {
          const scenario = TOOL_SCENARIOS[command];
          const result = turn.toolResults.at(-1);
          if (result === undefined) {
            yield* say('reasoning', scenario.reasoning);
            yield* callTool(scenario.tool, scenario.args, scenario.note);
            return;
          }
          yield* say('text', scenario.answer(result));
          break;
        }
        case 'clienttool': {
          const [, name = '', argumentsText = ''] = /^(\S*)\s*([\s\S]*)$/.exec(rest.trim()) ?? [];
          const result = turn.toolResults.at(-1);
          if (result === undefined) {
            yield* say('reasoning', `The user asked for the browser tool ${name}, which runs in their page.`);
            yield {
              type: 'tool_call',
              id: 'call_1',
              name,
              arguments: argumentsText.trim() === '' ? '{}' : argumentsText,
            };
            yield* finish('tool_calls');
            return;
          }
          yield* say('text', describeClientToolResult(name, result));
          break;
        }
        case 'call': {
          const result = turn.toolResults.at(-1);
          if (result !== undefined) {
            yield* say('text', describeCallResult(turn.toolCalls.at(-1)?.name ?? 'the tool', result));
            break;
          }
          const parsed = parseCallCommand(rest, offered);
          if ('problem' in parsed) {
            yield* say('text', parsed.problem);
            break;
          }
          yield* say('reasoning', `The user asked to call ${parsed.name} directly with the arguments they gave.`);
          yield* callTool(parsed.name, parsed.args, `Calling ${parsed.name}.`);
          return;
        }
        case 'widget': {
          if (turn.toolResults.length === 0) {
            yield* say('reasoning', 'An order reads best as a card the user can act on.');
            yield* callTool('orders.card', { orderId: 'A-1042' }, 'Here is your order.');
            return;
          }
          // `/widget track`: tracking the order then updates the card shown above in place.
          if (rest.trim() === 'track' && turn.toolResults.length === 1) {
            yield* callTool('orders.track', { orderId: 'A-1042' }, 'Checking where it is now.');
            return;
          }
          yield* say(
            'text',
            turn.toolResults.length === 1
              ? 'Track it, or change where it goes, right on the card.'
              : 'It left the Leith depot this morning; the card above now says so.',
          );
          break;
        }
        case 'propose': {
          const result = turn.toolResults.at(-1);
          if (result === undefined) {
            yield* say('reasoning', PROPOSAL.reasoning);
            yield* callTool('profile.propose', PROPOSAL.args(rest), PROPOSAL.note);
            return;
          }
          yield* say('text', PROPOSAL.answer(result));
          break;
        }
        case 'loop':
          yield* callTool(
            'orders.lookup',
            { orderId: `A-${1001 + turn.toolRounds}` },
            `Round ${turn.toolRounds + 1}: checking one more order.`,
          );
          return;
        case 'length':
          yield* say('text', 'This answer stops in the middle, as a model does when it reaches its output');
          yield* finish('length');
          return;
        case 'error':
          yield* say('reasoning', 'Starting an answer that will be interrupted once.');
          if ((request.attempt ?? 1) === 1) {
            yield* say('text', 'This first attempt breaks off in the middle of');
            throw new ModelError('The model service had a temporary problem.', {
              retryable: true,
              providerMessage: 'scripted: simulated 503 on attempt 1',
            });
          }
          yield* say('text', 'Recovered: the first attempt failed, was discarded and this retry succeeded.');
          break;
        case 'fail':
          yield* say('reasoning', 'This request will fail for good.');
          throw new ModelError('The model could not answer this request.', {
            retryable: false,
            status: 400,
            providerMessage: 'scripted: simulated fatal error',
          });
        default:
          yield* say(
            'reasoning',
            'The user sent ordinary text, so a short Markdown answer with a list of scenarios fits.',
          );
          yield* say('text', buildDefaultAnswer(turn.text, suggestionsFor(offered)));
      }
      yield* finish('stop');
    },
  };
}

/** The tools each tool scenario calls: without all of them offered, the scenario only says so. */
const SCENARIO_TOOLS: Readonly<Record<string, readonly string[]>> = {
  tool: ['orders.lookup'],
  progress: ['report.generate'],
  approval: ['drafts.list', 'drafts.delete'],
  propose: ['profile.propose'],
  widget: ['orders.card', 'orders.track'],
  loop: ['orders.lookup'],
};

/** The default answer's suggestions, each listed only when the run offers every tool it calls. */
const SUGGESTIONS: ReadonlyArray<{ text: string; commands: readonly string[] }> = [
  { text: '`/echo <text>` streams your text back', commands: [] },
  { text: '`/long 2000` writes about 2000 characters of Markdown', commands: [] },
  { text: '`/code` answers with code blocks in TypeScript and shell', commands: [] },
  { text: '`/tool` looks up an order', commands: ['tool'] },
  { text: '`/approval` asks before deleting a draft', commands: ['approval'] },
  { text: '`/propose` proposes a profile change you can apply or dismiss', commands: ['propose'] },
  { text: '`/widget` shows an order as a card you can act on (`/widget track` then updates it)', commands: ['widget'] },
  { text: '`/progress` runs a long tool', commands: ['progress'] },
  { text: '`/slow` streams for about 30 s', commands: [] },
  { text: '`/error` retries after a failure, `/fail` fails', commands: [] },
  { text: '`/loop` hits the round limit', commands: ['loop'] },
  { text: '`/length` is cut at the output limit', commands: [] },
  { text: '`/context` shows what reached the model (prompt layers, history)', commands: [] },
  { text: '`/shape` lists the shapes real models stream (a call without text, parallel calls, …)', commands: [] },
];

function suggestionsFor(offered: readonly string[]): string[] {
  const isOffered = (command: string): boolean =>
    (SCENARIO_TOOLS[command] ?? []).every((name) => offered.includes(name));
  const lines = SUGGESTIONS.filter((s) => s.commands.every(isOffered)).map((s) => s.text);
  return offered.length === 0
    ? lines
    : [...lines, `\`/call <tool> <json-args>\` calls one of this run's tools: ${formatNames(offered)}`];
}

/** The answer of a tool scenario whose tools the run does not offer. */
function describeMissingTools(command: string, missing: readonly string[], offered: readonly string[]): string {
  const needs = `\`/${command}\` needs the tool ${formatNames(missing)}, which this server does not offer, so nothing was called.`;
  return offered.length === 0
    ? `${needs} This run offers no tools.`
    : `${needs} Try \`/call <tool> <json-args>\` with one of: ${formatNames(offered)}.`;
}

/** Reads `/call`'s `<tool> <json-args>`: the call to make, or why it cannot be made. */
function parseCallCommand(
  rest: string,
  offered: readonly string[],
): { name: string; args: Record<string, unknown> } | { problem: string } {
  const [, name = '', argumentsText = ''] = /^(\S*)\s*([\s\S]*)$/.exec(rest.trim()) ?? [];
  const choices = offered.length === 0 ? 'This run offers no tools.' : `This run offers: ${formatNames(offered)}.`;
  if (name === '')
    return {
      problem: `Write \`/call <tool> <json-args>\`, e.g. \`/call ${offered[0] ?? 'orders.lookup'} {}\`. ${choices}`,
    };
  if (!offered.includes(name))
    return { problem: `There is no tool named \`${name}\` here, so nothing was called. ${choices}` };
  if (argumentsText.trim() === '') return { name, args: {} };
  let args: unknown;
  try {
    args = JSON.parse(argumentsText);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { problem: `The arguments for \`${name}\` are not valid JSON (${reason}), so nothing was called.` };
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    return { problem: `The arguments for \`${name}\` must be a JSON object, like \`{}\`, so nothing was called.` };
  return { name, args: args as Record<string, unknown> };
}

/** The answer to a `/call` call's result: its status, then its content in a code block it cannot close. */
function describeCallResult(name: string, result: ToolResult): string {
  const longestTicks = Math.max(0, ...(result.content.match(/`+/g) ?? []).map((ticks) => ticks.length));
  const fence = '`'.repeat(Math.max(3, longestTicks + 1));
  return `\`${name}\` ended **${result.status}**:\n\n${fence}\n${result.content}\n${fence}`;
}

function formatNames(names: readonly string[]): string {
  return names.map((name) => `\`${name}\``).join(', ');
}

interface ToolScenario {
  tool: string;
  args: Record<string, unknown>;
  reasoning: string;
  note: string;
  answer(result: Extract<ModelMessage, { role: 'tool' }>): string;
}

const TOOL_SCENARIOS: Record<'tool' | 'progress', ToolScenario> = {
  tool: {
    tool: 'orders.lookup',
    args: { orderId: 'A-1001' },
    reasoning: 'The user asks about an order, so I will look it up with the read-only tool.',
    note: 'Let me look up order A-1001.',
    answer: (result) => {
      if (result.status !== 'completed')
        return `I could not look up order A-1001 (${result.status}): ${result.content}`;
      const order = parseObject(result.content);
      return [
        '### Order A-1001',
        '',
        '| Field | Value |',
        '| --- | --- |',
        `| Status | ${String(order['status'])} |`,
        `| Carrier | ${String(order['carrier'])} |`,
        `| Estimated delivery | ${String(order['estimatedDelivery'])} |`,
        `| Total | €${String(order['totalEur'])} |`,
      ].join('\n');
    },
  },
  progress: {
    tool: 'report.generate',
    args: { topic: 'Quarterly sales', sections: 4 },
    reasoning: 'A report takes a while; the tool reports its progress.',
    note: 'Generating the report now.',
    answer: (result) =>
      result.status === 'completed'
        ? `The report is ready:\n\n${result.content}`
        : `The report did not finish (${result.status}).`,
  },
};

type ToolResult = Extract<ModelMessage, { role: 'tool' }>;

/** What `/approval` says in its three rounds: list the drafts, ask to delete the first, answer. */
const APPROVAL = {
  reasoning: "Deleting a draft changes the user's data: I will list the drafts, then ask for approval first.",
  listNote: 'Let me see which drafts you have.',
  deleteNote: (draft: { draftId: string; title: string }) =>
    `I will delete ${draft.draftId} ("${draft.title}") once you approve.`,
  noDraft: 'You have no draft I could delete.',
  /** The answer to the deletion's result; the draft's id comes from the call this turn made. */
  answer(result: ToolResult, calls: readonly ModelToolCall[]): string {
    const call = calls.find((candidate) => candidate.id === result.toolCallId);
    const draftId = String(parseObject(call?.arguments ?? '{}')['draftId'] ?? 'the draft');
    if (result.status === 'completed') return `Done: **${draftId}** was deleted.`;
    if (result.status === 'denied') return `Understood: I did **not** delete ${draftId}.`;
    return `${draftId} was not deleted (${result.status}): ${result.content}`;
  },
};

/** What `/propose` says: the change it proposes, then what the user's answer did. */
const PROPOSAL = {
  reasoning: "Changing the profile is the user's call: I will propose it and let them apply it.",
  note: 'Here is the change I propose; nothing changes until you apply it.',
  args: (bio: string) => ({ displayName: 'Ada Lovelace', bio: bio.trim() || 'Tea drinker.\nWrites about agents.' }),
  answer(result: ToolResult): string {
    if (result.status === 'completed') return 'Done: your profile now shows the new display name and bio.';
    if (result.status === 'denied') return `Understood: your profile stays as it was. (${result.content})`;
    return `Your profile was not changed (${result.status}): ${result.content}`;
  },
};

/** The answer to a `/clienttool` call's result: its content, and its status when it did not complete. */
function describeClientToolResult(name: string, result: ToolResult): string {
  return result.status === 'completed'
    ? `The browser tool ${name} returned: ${result.content}`
    : `The browser tool ${name} ended ${result.status}: ${result.content}`;
}

/** The first draft a `drafts.list` result names, or null when it names none. */
function firstDraft(result: ToolResult): { draftId: string; title: string } | null {
  if (result.status !== 'completed') return null;
  const drafts: unknown = parseObject(result.content)['drafts'];
  const first: unknown = Array.isArray(drafts) ? drafts[0] : undefined;
  if (typeof first !== 'object' || first === null) return null;
  const { draftId, title } = first as Record<string, unknown>;
  return typeof draftId === 'string' ? { draftId, title: typeof title === 'string' ? title : draftId } : null;
}

interface Turn {
  text: string;
  toolRounds: number;
  /** The tool calls the model made since the user's message, in order. */
  toolCalls: ModelToolCall[];
  toolResults: Extract<ModelMessage, { role: 'tool' }>[];
}

function readTurn(messages: readonly ModelMessage[]): Turn {
  let index = messages.length - 1;
  while (index >= 0 && messages[index]?.role !== 'user') index -= 1;
  const after = messages.slice(index + 1);
  return {
    text: messages[index]?.content ?? '',
    toolRounds: after.filter((m) => m.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0).length,
    toolCalls: after.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : [])),
    toolResults: after.filter((m): m is Extract<ModelMessage, { role: 'tool' }> => m.role === 'tool'),
  };
}

function splitWords(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function splitChars(text: string, size: number): string[] {
  const chars = [...text];
  const pieces: string[] = [];
  for (let index = 0; index < chars.length; index += size) pieces.push(chars.slice(index, index + size).join(''));
  return pieces;
}

function estimate(messages: readonly ModelMessage[]): number {
  return Math.ceil(messages.reduce((sum, message) => sum + message.content.length, 0) / 4);
}
