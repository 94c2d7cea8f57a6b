import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { EVENT_TYPES, REASONING_EFFORTS, WIDGET_LIMITS } from '../../src/core/protocol.ts';
import type { EventDataMap } from '../../src/core/protocol.ts';
import type { EventType } from '../../src/core/protocol/generated/wire-contract.ts';
import { WIRE_CONTRACT_SCHEMA } from '../../src/core/protocol/schema/wire-contract.schema.ts';
import { renderContractFiles } from './generate-contract.ts';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('the files generated from the wire contract', () => {
  it('are committed as `npm run generate:contract` writes them', async () => {
    const files = await renderContractFiles();
    expect(files.size).toBeGreaterThan(0);
    for (const [path, expected] of files) {
      const committed = readFileSync(resolve(rootDir, path), 'utf8');
      expect(committed, `${path} differs from the schema: run npm run generate:contract`).toBe(expected);
    }
  });

  it('and the runtime lists of the core name the same values as the schema', () => {
    const { $defs } = WIRE_CONTRACT_SCHEMA;
    expect(REASONING_EFFORTS).toEqual($defs.ReasoningEffort.enum);
    expect(WIDGET_LIMITS.maxFields).toBe($defs.WidgetActionRequest.properties.values.maxProperties);
    expect(EVENT_TYPES).toEqual($defs.EventType.enum);
  });

  it('name every event type whose payload the core types, and no other (checked by the type checker)', () => {
    expectTypeOf<EventType>().toEqualTypeOf<keyof EventDataMap>();
  });
});
