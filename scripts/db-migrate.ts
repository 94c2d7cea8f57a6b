import { migratePostgresStorage } from '../src/server/storage/postgres/postgres-storage.ts';
import { describePostgresUrl } from '../src/server/storage/open-storage-from-env.ts';

// `npm run db:migrate`: brings the Postgres schema of DATABASE_URL (AGENT_CHAT_PG_SCHEMA, default
// agent_chat) to the newest version, for teams that migrate before they deploy. `npm start` and
// `createPostgresStorage` migrate on open as well, so running it is optional.
const url = process.env['DATABASE_URL']?.trim() ?? '';
if (url === '') {
  console.error('db:migrate needs DATABASE_URL=postgres://… (the database to migrate).');
  process.exit(2);
}
const schema = process.env['AGENT_CHAT_PG_SCHEMA']?.trim() || undefined;
try {
  const version = await migratePostgresStorage({ connectionString: url, ...(schema === undefined ? {} : { schema }) });
  console.log(`${describePostgresUrl(url)} schema ${schema ?? 'agent_chat'} is at version ${version}.`);
} catch (error) {
  console.error(`db:migrate failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
