import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { openPostgresConnection } from './postgres-connection.ts';
import { migratePostgres, POSTGRES_MIGRATIONS } from './postgres-migrations.ts';
import { createPostgresStorage } from './postgres-storage.ts';
import { dropPostgresSchema } from './test-support/drop-postgres-schema.ts';

const rootDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const NEWEST = Math.max(...POSTGRES_MIGRATIONS.map((step) => step.version));

let schemaCount = 0;
const schemas: string[] = [];
const freshSchema = (): string => {
  const schema = `migrations_${process.pid}_${(schemaCount += 1)}`;
  schemas.push(schema);
  return schema;
};
afterEach(async () => {
  for (const schema of schemas.splice(0)) await dropPostgresSchema({ connectionString: inject('postgresUrl'), schema });
});

async function versionsOf(schema: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: inject('postgresUrl') });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: number }>(
      `SELECT version FROM "${schema}".schema_version ORDER BY version`,
    );
    return rows.map((row) => row.version);
  } finally {
    await client.end();
  }
}

describe('Postgres migrations', () => {
  it('applies each step once when processes open the same schema together', async () => {
    const schema = freshSchema();
    const opened = await Promise.all(
      [1, 2, 3].map(() => createPostgresStorage({ connectionString: inject('postgresUrl'), schema })),
    );
    expect(await versionsOf(schema)).toEqual(POSTGRES_MIGRATIONS.map((step) => step.version));
    expect(await opened[0]?.getOrCreateSetting('shared', 'first')).toBe('first');
    expect(await opened[2]?.getOrCreateSetting('shared', 'other')).toBe('first');
    for (const storage of opened) await storage.close();
  });

  it("uses a product's own pg pool and leaves it open on close", async () => {
    const pool = new pg.Pool({ connectionString: inject('postgresUrl'), max: 2 });
    try {
      const storage = await createPostgresStorage({ pool, schema: freshSchema() });
      expect(await storage.getOrCreateSetting('own-pool', 'kept')).toBe('kept');
      await storage.close();
      const { rows } = await pool.query<{ one: number }>('SELECT 1 AS one');
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it('applies only the steps above the recorded version, and refuses a schema newer than the code', async () => {
    const schema = freshSchema();
    const connection = openPostgresConnection({ connectionString: inject('postgresUrl') }, schema);
    try {
      expect(await migratePostgres(connection)).toBe(NEWEST);
      const next = {
        version: NEWEST + 1,
        description: 'a later column',
        sql: (S: string) => `ALTER TABLE ${S}.settings ADD COLUMN note text`,
      };
      expect(await migratePostgres(connection, { migrations: [...POSTGRES_MIGRATIONS, next] })).toBe(NEWEST + 1);
      await expect(migratePostgres(connection)).rejects.toThrow(
        `The Postgres schema ${schema} is at version ${NEWEST + 1}; this server knows up to ${NEWEST}.`,
      );
    } finally {
      await connection.close();
    }
  });

  it('runs as npm run db:migrate, and a storage opened with migrate: false uses that schema', async () => {
    const schema = freshSchema();
    const url = inject('postgresUrl');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/db-migrate.ts'], {
      cwd: rootDir,
      env: { ...process.env, DATABASE_URL: url, AGENT_CHAT_PG_SCHEMA: schema },
    });
    expect(stdout.trim()).toBe(`${url.replace('postgres@', '')} schema ${schema} is at version ${NEWEST}.`);
    const storage = await createPostgresStorage({ connectionString: url, schema, migrate: false });
    expect(await storage.counts()).toEqual({ sessions: 0, runs: 0 });
    await storage.close();
  });

  it('refuses a schema name it would have to quote', async () => {
    await expect(
      createPostgresStorage({ connectionString: inject('postgresUrl'), schema: 'x"; DROP' }),
    ).rejects.toThrow('The Postgres schema must match');
  });
});
