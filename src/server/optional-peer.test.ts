import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { isMissingPackage, requireOptionalPeer } from './optional-peer.ts';

describe('requireOptionalPeer', () => {
  test('loads an installed peer with Node’s require', () => {
    const prom = requireOptionalPeer<{ Registry: unknown }>('prom-client', 'metrics: true');
    expect(typeof prom.Registry).toBe('function');
  });

  test('names what needs a missing peer and how to install it, with Node’s error as the cause', () => {
    let thrown: unknown;
    try {
      requireOptionalPeer('agent-chat-no-such-peer', 'SQLite storage');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toBe(
      'SQLite storage needs the agent-chat-no-such-peer package: npm install agent-chat-no-such-peer',
    );
    expect(((thrown as Error).cause as { code?: string }).code).toBe('MODULE_NOT_FOUND');
  });

  test('keeps the call out of bundlers’ sight: a specifier that is not a literal, and their ignore comments', async () => {
    const source = await readFile(new URL('./optional-peer.ts', import.meta.url), 'utf8');
    expect(source).toContain(
      'createRequire(import.meta.url)(/* webpackIgnore: true */ /* turbopackIgnore: true */ name)',
    );
  });
});

describe('isMissingPackage', () => {
  const notFound = (message: string, code: string): Error => Object.assign(new Error(message), { code });

  test('is true when the package itself cannot be found, by require or by import', () => {
    expect(
      isMissingPackage(
        notFound("Cannot find module 'better-sqlite3'\nRequire stack: …", 'MODULE_NOT_FOUND'),
        'better-sqlite3',
      ),
    ).toBe(true);
    expect(
      isMissingPackage(
        notFound(
          "Cannot find package '@modelcontextprotocol/sdk' imported from /app/server.js",
          'ERR_MODULE_NOT_FOUND',
        ),
        '@modelcontextprotocol/sdk',
      ),
    ).toBe(true);
  });

  test('is false for a module missing inside an installed package, and for other errors', () => {
    expect(isMissingPackage(notFound("Cannot find module 'bindings'", 'MODULE_NOT_FOUND'), 'better-sqlite3')).toBe(
      false,
    );
    expect(isMissingPackage(new Error("Cannot find module 'better-sqlite3'"), 'better-sqlite3')).toBe(false);
    expect(isMissingPackage('better-sqlite3', 'better-sqlite3')).toBe(false);
  });
});
