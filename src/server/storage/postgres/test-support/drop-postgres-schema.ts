import pg from 'pg';

/** Drops a test's schema with everything in it (its tables, its data) from the test's private Postgres. */
export async function dropPostgresSchema(options: { connectionString: string; schema: string }): Promise<void> {
  const client = new pg.Client({ connectionString: options.connectionString });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${options.schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
