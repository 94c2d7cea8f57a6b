import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { findPostgresBinaries, startPostgresServer } from '../../../../test/support/postgres-server.ts';

/** Resolves true once something accepts a connection on the port, false when it is refused. */
function isListening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe("the tests' private Postgres (test/support/postgres-server.ts)", () => {
  it('fails naming the package to install when initdb and postgres are missing, rather than skipping', () => {
    expect(() => findPostgresBinaries({ PATH: '/nonexistent-a:/nonexistent-b' }, '/nonexistent/postgresql')).toThrow(
      "initdb and postgres not found on PATH or in /nonexistent/postgresql/*/bin: install Debian's postgresql package (apt-get install postgresql; .ci/run does this when initdb is missing).",
    );
  });

  it("finds Debian's versioned folder, which is not on PATH, newest version first", async () => {
    const root = await mkdtemp(join(tmpdir(), 'agent-chat-fake-postgresql-'));
    folders.push(root);
    for (const version of ['13', '16']) {
      await mkdir(join(root, version, 'bin'), { recursive: true });
      for (const name of ['initdb', 'postgres']) {
        await writeFile(join(root, version, 'bin', name), '#!/bin/sh\n');
        await chmod(join(root, version, 'bin', name), 0o755);
      }
    }
    expect(findPostgresBinaries({ PATH: '/nonexistent' }, root)).toBe(join(root, '16', 'bin'));
  });

  it('serves a fresh database on its port, keeps its data across halt and start, and leaves nothing after stop', async () => {
    const server = await startPostgresServer();
    const ask = async (text: string): Promise<unknown[]> => {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        return (await client.query(text)).rows;
      } finally {
        await client.end();
      }
    };
    await ask("CREATE TABLE kept (value text); INSERT INTO kept VALUES ('across the restart')");
    const [found] = await ask("SELECT setting FROM pg_settings WHERE name = 'data_directory'");
    const dataDirectory = (found as { setting: string }).setting;
    await server.halt();
    expect(await isListening(server.port)).toBe(false);
    await server.start();
    expect(await ask('SELECT value FROM kept')).toEqual([{ value: 'across the restart' }]);
    await server.stop();
    expect(await isListening(server.port)).toBe(false);
    expect(existsSync(dataDirectory)).toBe(false);
  });
});
