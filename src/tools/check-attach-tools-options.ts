import { checkHandlers } from '../core/index.ts';
import type { AttachToolsOptions } from './attach-tools.ts';

type OptionName = keyof AttachToolsOptions;

const isFunction = (value: unknown): boolean => typeof value === 'function';
const EXECUTOR_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Every option of `attachTools` but `tools` (checked by `checkHandlers`), with its check and what it must be. */
const OPTION_RULES: Record<Exclude<OptionName, 'tools'>, [isValid: (value: unknown) => boolean, expected: string]> = {
  locale: [(value) => typeof value === 'string' && value.trim() !== '', 'a non-empty string'],
  receipts: [
    (value) => value === 'memory' || value === 'indexeddb' || isFunction(value),
    '"memory", "indexeddb" or a function that makes a store for an identity id',
  ],
  executorId: [
    (value) => typeof value === 'string' && EXECUTOR_ID_PATTERN.test(value),
    '1–64 letters, digits, "_" or "-"',
  ],
  authorize: [isFunction, 'a function (call, phase) returning true or false'],
  reconcile: [isFunction, 'a function (call) returning a confirmed outcome or nothing'],
  onDiagnostic: [isFunction, 'a function (call, state)'],
  clock: [(value) => typeof value === 'object' && value !== null, 'a clock ({ now, setTimeout, clearTimeout })'],
  ids: [isFunction, 'a function returning a new id'],
};
const RULES = new Map(Object.entries(OPTION_RULES));

/**
 * Throws a `TypeError` that names the option and what it must be when `options` are not those of
 * `attachTools` (the `tools` and `toolRunner` options of `mount`): an unknown option, a wrong type,
 * or a tool that is not a browser tool. So a mistake shows when the tools are attached, not as a
 * call that never runs.
 */
export function checkAttachToolsOptions(options: unknown): asserts options is AttachToolsOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('Browser tools: the options must be an object such as { tools }.');
  const record = options as Record<string, unknown>;
  checkHandlers(record.tools);
  for (const [key, value] of Object.entries(record)) {
    const rule = RULES.get(key);
    if (rule === undefined && key !== 'tools') {
      const known = ['tools', ...RULES.keys()].join(', ');
      throw new TypeError(`Browser tools: unknown option "${key}"; the options are ${known}.`);
    }
    if (rule !== undefined && value !== undefined && !rule[0](value))
      throw new TypeError(`Browser tools: the option "${key}" must be ${rule[1]}.`);
  }
}
