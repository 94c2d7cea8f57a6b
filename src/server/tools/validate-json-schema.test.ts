import { describe, expect, it } from 'vitest';
import { validateJsonSchema } from './validate-json-schema.ts';

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

describe('validateJsonSchema', () => {
  it.each([
    { title: 'a valid object', value: { id: 'ab', count: 2, mode: 'fast', tags: ['x'], flag: true }, expected: [] },
    { title: 'not an object', value: [1], expected: ['$ must be an object'] },
    { title: 'a missing required property', value: {}, expected: ['$.id is required'] },
    { title: 'an extra property', value: { id: 'ab', other: 1 }, expected: ['$.other is not allowed'] },
    { title: 'lengths counted in characters', value: { id: '👋👋👋👋' }, expected: [] },
    {
      title: 'too short and too long',
      value: { id: 'a', tags: ['ok'] },
      expected: ['$.id must have at least 2 characters'],
    },
    {
      title: 'a non-integer and out of range',
      value: { id: 'ab', count: 1.5 },
      expected: ['$.count must be an integer'],
    },
    { title: 'above the maximum', value: { id: 'ab', count: 4 }, expected: ['$.count must be at most 3'] },
    {
      title: 'outside the enum',
      value: { id: 'ab', mode: 'slow' },
      expected: ['$.mode must be one of "fast", "safe"'],
    },
    { title: 'a wrong array item', value: { id: 'ab', tags: ['a', 2] }, expected: ['$.tags[1] must be a string'] },
    {
      title: 'a wrong boolean',
      value: { id: 'abcde', flag: 'yes' },
      expected: ['$.id must have at most 4 characters', '$.flag must be a boolean'],
    },
  ])('$title', ({ value, expected }) => {
    expect(validateJsonSchema(schema, value)).toEqual(expected);
  });
});
