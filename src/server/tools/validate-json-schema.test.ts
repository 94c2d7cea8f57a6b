import { describe, expect, it } from 'vitest';
import { createToolRegistry } from './tool-registry.ts';
import { createJsonSchemaCompiler } from './validate-json-schema.ts';

const schema = {
  type: 'object',
  properties: {
    id: { type: 'string', minLength: 2, maxLength: 4 },
    count: { type: 'integer', minimum: 1, maximum: 3 },
    mode: { enum: ['fast', 'safe'] },
    tags: { type: 'array', items: { type: 'string' } },
    flag: { type: 'boolean' },
  },
  required: ['id'],
  additionalProperties: false,
};

/** Keywords the hand-written subset used to ignore. */
const richSchema = {
  type: 'object',
  $defs: { sku: { type: 'string', pattern: '^SKU-[0-9]{4}$' } },
  properties: {
    orderId: { type: 'string', pattern: '^A-[0-9]+$' },
    email: { type: 'string', format: 'email' },
    version: { const: 2 },
    item: { $ref: '#/$defs/sku' },
    amount: { oneOf: [{ type: 'integer' }, { type: 'string', pattern: '^[0-9]+ EUR$' }] },
    note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
  },
};

describe('createJsonSchemaCompiler', () => {
  const validate = createJsonSchemaCompiler().compile(schema);
  it.each([
    { title: 'a valid object', value: { id: 'ab', count: 2, mode: 'fast', tags: ['x'], flag: true }, expected: [] },
    { title: 'not an object', value: [1], expected: ['$ must be an object'] },
    { title: 'a missing required property', value: {}, expected: ['$.id is required'] },
    { title: 'an extra property', value: { id: 'ab', other: 1 }, expected: ['$.other is not allowed'] },
    { title: 'lengths counted in characters', value: { id: '👋👋👋👋' }, expected: [] },
    { title: 'too short', value: { id: 'a', tags: ['ok'] }, expected: ['$.id must have at least 2 characters'] },
    { title: 'a non-integer', value: { id: 'ab', count: 1.5 }, expected: ['$.count must be an integer'] },
    { title: 'above the maximum', value: { id: 'ab', count: 4 }, expected: ['$.count must be at most 3'] },
    {
      title: 'outside the enum',
      value: { id: 'ab', mode: 'slow' },
      expected: ['$.mode must be one of "fast", "safe"'],
    },
    { title: 'a wrong array item', value: { id: 'ab', tags: ['a', 2] }, expected: ['$.tags[1] must be a string'] },
    {
      title: 'every problem at once',
      value: { id: 'abcde', flag: 'yes' },
      expected: ['$.id must have at most 4 characters', '$.flag must be a boolean'],
    },
  ])('$title', ({ value, expected }) => {
    expect(validate(value)).toEqual(expected);
  });

  const validateRich = createJsonSchemaCompiler().compile(richSchema);
  it.each([
    {
      title: 'values that satisfy pattern, format, const, $ref, oneOf and anyOf',
      value: { orderId: 'A-7', email: 'ana@example.com', version: 2, item: 'SKU-0042', amount: '12 EUR', note: null },
      expected: [],
    },
    { title: 'a pattern mismatch', value: { orderId: 'B-7' }, expected: ['$.orderId must match pattern "^A-[0-9]+$"'] },
    { title: 'a format mismatch', value: { email: 'not-an-email' }, expected: ['$.email must match format "email"'] },
    { title: 'a const mismatch', value: { version: 3 }, expected: ['$.version must be 2'] },
    {
      title: 'a $ref target mismatch',
      value: { item: 'SKU-42' },
      expected: ['$.item must match pattern "^SKU-[0-9]{4}$"'],
    },
    {
      title: 'no oneOf branch matching',
      value: { amount: 1.5 },
      expected: [
        '$.amount must be an integer',
        '$.amount must be a string',
        '$.amount must match exactly one schema in oneOf',
      ],
    },
    {
      title: 'no anyOf branch matching',
      value: { note: 4 },
      expected: ['$.note must be a string', '$.note must be null', '$.note must match a schema in anyOf'],
    },
  ])('$title', ({ value, expected }) => {
    expect(validateRich(value)).toEqual(expected);
  });

  it('reports at most ten problems', () => {
    const many = createJsonSchemaCompiler().compile({
      type: 'object',
      required: Array.from({ length: 12 }, (_, index) => `p${index}`),
    });
    expect(many({})).toEqual(Array.from({ length: 10 }, (_, index) => `$.p${index} is required`));
  });
});

describe('createToolRegistry schema compilation', () => {
  const tool = (parameters: Record<string, unknown>) => ({
    name: 'orders.lookup',
    description: 'Looks up an order',
    parameters,
    policy: 'allow' as const,
    run: async () => 'ok',
  });

  it('validates arguments with the schema compiled at creation', () => {
    const registry = createToolRegistry([tool({ type: 'object', properties: { orderId: { pattern: '^A-' } } })]);
    expect(registry.validateArguments('orders.lookup', { orderId: 'A-1' })).toEqual([]);
    expect(registry.validateArguments('orders.lookup', { orderId: 'Z-1' })).toEqual([
      '$.orderId must match pattern "^A-"',
    ]);
  });

  it.each([
    {
      title: 'an invalid type',
      parameters: { type: 'strin' },
      message: 'Tool "orders.lookup" has an invalid parameters schema: schema is invalid: data/type must be equal',
    },
    {
      title: 'an unknown format',
      parameters: { type: 'string', format: 'order-number' },
      message: 'Tool "orders.lookup" has an invalid parameters schema: unknown format "order-number"',
    },
    {
      title: 'an unknown keyword',
      parameters: { type: 'object', minProperty: 1 },
      message: 'Tool "orders.lookup" has an invalid parameters schema: strict mode: unknown keyword: "minProperty"',
    },
  ])('fails at creation on $title', ({ parameters, message }) => {
    expect(() => createToolRegistry([tool(parameters)])).toThrow(message);
  });
});
