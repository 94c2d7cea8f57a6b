import type { TestProject } from 'vitest/node';
import { startPostgresServer } from './postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `postgres://postgres@127.0.0.1:<port>/postgres` of the private Postgres the server tests share (`inject('postgresUrl')`). */
    postgresUrl: string;
  }
}

/**
 * Vitest global setup of the server tests: starts one private Postgres (`initdb` in a temp folder,
 * free port, see `startPostgresServer`) and provides its URL; each suite keeps its tables in a
 * schema of its own. The teardown stops it and removes the folder, and its watchdog does so too if
 * this process dies first.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const postgres = await startPostgresServer();
  project.provide('postgresUrl', postgres.url);
  return () => postgres.stop();
}
