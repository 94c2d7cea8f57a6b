import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Limits } from '../../core/protocol.ts';
import type { ContractTypes } from '../../core/protocol/generated/wire-contract.ts';
import { WIRE_CONTRACT_SCHEMA } from '../../core/protocol/schema/wire-contract.schema.ts';
import { fail } from '../http/problem-error.ts';
import type { SizeLimitName } from '../limits/fail-over-limit.ts';
import { failOverLimit } from '../limits/fail-over-limit.ts';

/** A definition of the contract's schema (src/core/protocol/schema/wire-contract.schema.ts). */
export type ContractName = keyof ContractTypes;

/** A schema node as the server compiles it: references inlined, `x-limit`s turned into bounds. */
interface CompiledNode {
  type?: string | string[];
  properties?: Record<string, CompiledNode>;
  items?: CompiledNode;
  additionalProperties?: CompiledNode;
  maxChars?: number;
  maxItems?: number;
  'x-limit'?: SizeLimitName;
  'x-field'?: string;
  [keyword: string]: unknown;
}

/** The first thing wrong with a body: the `details.field` it names and ajv's account of it. */
export interface ContractViolation {
  field: string;
  /** The value's path as segments (`['input', 'content', '0']`). */
  path: string[];
  /** The whole value checked. */
  value: unknown;
  error: ErrorObject;
}

const DEFINITIONS = WIRE_CONTRACT_SCHEMA.$defs as unknown as Record<string, Record<string, unknown>>;
const ANNOTATIONS = ['x-limit', 'x-field', 'x-checked-apart'];

// Strict (unknown keywords are a bug), first error only (hostile bodies cost one failure).
const ajv = new Ajv({ allErrors: false, verbose: true, allowUnionTypes: true, strict: true });
ajv.addVocabulary(ANNOTATIONS);
// `maxLength` counts code points; every limit of docs/protocol.md §16.2 counts UTF-16 code units.
ajv.addKeyword({
  keyword: 'maxChars',
  type: 'string',
  schemaType: 'number',
  errors: false,
  validate: (max: number, text: string) => text.length <= max,
});

// One validator per definition and set of bounds (a server's limits rarely differ from another's).
const compiled = new Map<string, { validate: ValidateFunction; schema: CompiledNode }>();
const boundsByLimits = new WeakMap<object, { values: Bounds; key: string }>();

type Bounds = Partial<Record<SizeLimitName, number>>;
const NO_LIMITS: Partial<Limits> = {};
// Every limit an `x-limit` of the schema names.
const BOUND_NAMES = [...new Set(JSON.stringify(DEFINITIONS).match(/(?<="x-limit":")\w+/g) ?? [])] as SizeLimitName[];

/**
 * Checks `value` against the contract's definition `name` under the server's `limits` and returns
 * it typed, or throws the problem: `422 VALIDATION_FAILED` naming `details.field` (with the
 * limit's name and the actual size when an `x-limit` is passed). Members the schema does not name
 * are let through: the caller keeps only those it reads. `rootField` names the value when it is a
 * member checked apart (`browserTools`); `onViolation` may throw another problem first.
 */
export function parseContractBody<Name extends ContractName>(
  name: Name,
  value: unknown,
  options: {
    limits?: Partial<Limits>;
    rootField?: string;
    onViolation?: (violation: ContractViolation) => void;
  },
): ContractTypes[Name] {
  const { validate, schema } = validatorFor(name, options.limits ?? NO_LIMITS);
  if (validate(value)) return value as ContractTypes[Name];
  const error = (validate.errors as ErrorObject[])[0] as ErrorObject;
  const violation = describeViolation(error, schema, { value, rootField: options.rootField });
  options.onViolation?.(violation);
  return failViolation(violation);
}

function validatorFor(
  name: ContractName,
  limits: Partial<Limits>,
): { validate: ValidateFunction; schema: CompiledNode } {
  let bounds = boundsByLimits.get(limits);
  if (bounds === undefined) {
    bounds = pickBounds(limits);
    boundsByLimits.set(limits, bounds);
  }
  const key = `${name} ${bounds.key}`;
  let entry = compiled.get(key);
  if (entry === undefined) {
    const schema = prepare(DEFINITIONS[name] as Record<string, unknown>, bounds.values);
    entry = { validate: ajv.compile(schema), schema };
    compiled.set(key, entry);
  }
  return entry;
}

/** Inlines `$ref`s, sets bounds from `x-limit`s and leaves out members checked apart. */
function prepare(node: Record<string, unknown>, limits: Bounds): CompiledNode {
  const { $ref, ...siblings } = node;
  const merged: Record<string, unknown> =
    typeof $ref === 'string' ? { ...(DEFINITIONS[$ref.replace('#/$defs/', '')] ?? {}), ...siblings } : siblings;
  if (typeof $ref === 'string' && DEFINITIONS[$ref.replace('#/$defs/', '')] === undefined) {
    throw new Error(`Unknown $ref ${$ref}.`);
  }
  if (merged['x-checked-apart'] === true) return {};
  const apart = Object.entries((merged.properties ?? {}) as Record<string, Record<string, unknown>>)
    .filter(([, schema]) => schema['x-checked-apart'] === true)
    .map(([member]) => member);
  if (typeof merged.$ref === 'string') return prepare(merged, limits);
  const result: CompiledNode = {};
  for (const [keyword, child] of Object.entries(merged)) {
    if (keyword === 'description') continue;
    if (keyword === 'properties') {
      const properties = child as Record<string, Record<string, unknown>>;
      result.properties = Object.fromEntries(
        Object.entries(properties).map(([member, schema]) => [member, prepare(schema, limits)]),
      );
    } else if (keyword === 'items' || keyword === 'additionalProperties') {
      result[keyword] = prepare(child as Record<string, unknown>, limits);
    } else if (keyword === 'required') result.required = (child as string[]).filter((m) => !apart.includes(m));
    else if (keyword === 'maxLength') result.maxChars = child as number;
    else if (keyword === 'anyOf') result.anyOf = (child as Record<string, unknown>[]).map((b) => prepare(b, limits));
    else result[keyword] = child;
  }
  const limit = result['x-limit'];
  const max = limit === undefined ? undefined : limits[limit];
  if (max !== undefined) {
    const types = [result.type ?? []].flat();
    if (types.includes('string')) result.maxChars = max;
    if (types.includes('array')) result.maxItems = max;
  }
  return result;
}

function describeViolation(
  error: ErrorObject,
  schema: CompiledNode,
  options: { value: unknown; rootField: string | undefined },
): ContractViolation {
  const path = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map(unescapePointer);
  if (error.keyword === 'required') path.push((error.params as { missingProperty: string }).missingProperty);
  let node: CompiledNode | undefined = schema;
  let field = schema['x-field'];
  for (const segment of path) {
    const member: CompiledNode | undefined = node?.properties?.[segment] ?? node?.additionalProperties;
    node = /^\d+$/.test(segment) && node?.items !== undefined ? node.items : member;
    field = node?.['x-field'] ?? field;
  }
  const isOverLimit = isLimitKeyword(error.keyword) && node?.['x-limit'];
  const named = isOverLimit ? node?.['x-field'] : field;
  return { field: named ?? pathField(path, options.rootField), path, value: options.value, error };
}

function failViolation(violation: ContractViolation): never {
  const { field, error } = violation;
  const bounded = error.parentSchema as CompiledNode | undefined;
  const limit = bounded?.['x-limit'];
  if (isLimitKeyword(error.keyword) && limit !== undefined) {
    const max = (error.keyword === 'maxChars' ? bounded?.maxChars : bounded?.maxItems) as number;
    const unit = error.keyword === 'maxChars' ? 'characters' : 'entries';
    return failOverLimit({
      field,
      limit,
      max,
      actual: (error.data as string | unknown[]).length,
      detail: `${field} may be at most ${max} ${unit}.`,
    });
  }
  const detail =
    error.keyword === 'maxChars'
      ? `${field} may be at most ${bounded?.maxChars} characters.`
      : `${field} ${error.message ?? 'is invalid'}.`;
  return fail({ code: 'VALIDATION_FAILED', detail, details: { field } });
}

function isLimitKeyword(keyword: string): boolean {
  return keyword === 'maxChars' || keyword === 'maxItems';
}

/** `['input', 'contextRefs', '1', 'ref']` → `input.contextRefs[1].ref`; the body itself is `body`. */
function pathField(path: readonly string[], rootField: string | undefined): string {
  let field = rootField ?? '';
  for (const segment of path) {
    if (/^\d+$/.test(segment)) field += `[${segment}]`;
    else field += field === '' ? segment : `.${segment}`;
  }
  return field === '' ? 'body' : field;
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The limits the contract's `x-limit`s may name, read from the server's `limits`, and their cache key. */
function pickBounds(limits: Partial<Limits>): { values: Bounds; key: string } {
  const values: Bounds = {};
  for (const name of BOUND_NAMES) {
    const value = limits[name];
    if (typeof value === 'number') values[name] = value;
  }
  return { values, key: JSON.stringify(values) };
}
