import type { PostgresConnection } from './postgres-connection.ts';

/** One versioned schema step; applied once, in order, in its own transaction. `S` is the quoted schema. */
export interface PostgresMigration {
  version: number;
  description: string;
  sql: (S: string) => string;
}

/**
 * The schema, as steps (docs/server.md, "Postgres"). Never edit a released step: add the next
 * version. Envelopes, snapshots and run starts are JSON text (read back byte for byte); times are
 * epoch milliseconds. A session's runs, a run's events, messages, lease, AG-UI link and votes go
 * with it (`ON DELETE CASCADE`).
 */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    description: 'sessions, runs, event logs, settled messages, idempotency, leases, links, votes, settings',
    sql: (S) => `
      CREATE TABLE ${S}.settings (name text PRIMARY KEY, value text NOT NULL);
      CREATE TABLE ${S}.sessions (
        position bigserial UNIQUE,
        session_id text PRIMARY KEY,
        subject_id text NOT NULL,
        agent_version_id text NOT NULL,
        title text,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL,
        active_run_id text,
        last_run_id text
      );
      CREATE INDEX sessions_by_subject_activity ON ${S}.sessions (subject_id, updated_at, position);
      CREATE INDEX sessions_by_activity ON ${S}.sessions (updated_at, position);
      CREATE TABLE ${S}.runs (
        position bigserial UNIQUE,
        run_id text PRIMARY KEY,
        session_id text NOT NULL REFERENCES ${S}.sessions ON DELETE CASCADE,
        subject_id text NOT NULL,
        user_message_id text NOT NULL,
        created_at bigint NOT NULL,
        start_json text NOT NULL,
        first_seq integer NOT NULL DEFAULT 1,
        last_seq integer NOT NULL DEFAULT 1,
        ended_at bigint,
        final_snapshot_json text,
        is_compacted boolean NOT NULL DEFAULT false
      );
      CREATE INDEX runs_by_session ON ${S}.runs (session_id, position);
      CREATE INDEX runs_active_by_subject ON ${S}.runs (subject_id) WHERE ended_at IS NULL;
      CREATE INDEX runs_to_compact ON ${S}.runs (ended_at) WHERE ended_at IS NOT NULL AND NOT is_compacted;
      CREATE TABLE ${S}.events (
        run_id text NOT NULL REFERENCES ${S}.runs ON DELETE CASCADE,
        seq integer NOT NULL,
        envelope_json text NOT NULL,
        PRIMARY KEY (run_id, seq)
      );
      CREATE TABLE ${S}.messages (
        position bigserial PRIMARY KEY,
        session_id text NOT NULL,
        run_id text NOT NULL REFERENCES ${S}.runs ON DELETE CASCADE,
        message_id text NOT NULL,
        role text NOT NULL,
        message_json text NOT NULL,
        in_history boolean NOT NULL DEFAULT true,
        UNIQUE (session_id, message_id)
      );
      CREATE INDEX messages_by_session ON ${S}.messages (session_id, position) WHERE in_history;
      CREATE INDEX messages_by_run ON ${S}.messages (run_id, position);
      CREATE TABLE ${S}.idempotency (
        record_id text PRIMARY KEY,
        fingerprint text NOT NULL,
        state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
        token text,
        locked_until bigint,
        response_json text,
        expires_at bigint NOT NULL
      );
      CREATE INDEX idempotency_by_expiry ON ${S}.idempotency (expires_at);
      CREATE TABLE ${S}.leases (
        run_id text PRIMARY KEY REFERENCES ${S}.runs ON DELETE CASCADE,
        owner text NOT NULL,
        expires_at bigint NOT NULL
      );
      CREATE INDEX leases_by_expiry ON ${S}.leases (expires_at);
      CREATE TABLE ${S}.ag_ui_threads (
        subject_id text NOT NULL,
        thread_id text NOT NULL,
        session_id text NOT NULL REFERENCES ${S}.sessions ON DELETE CASCADE,
        PRIMARY KEY (subject_id, thread_id)
      );
      CREATE INDEX ag_ui_threads_by_session ON ${S}.ag_ui_threads (session_id);
      CREATE TABLE ${S}.ag_ui_segments (
        run_id text PRIMARY KEY REFERENCES ${S}.runs ON DELETE CASCADE,
        ag_ui_run_id text NOT NULL
      );
      CREATE TABLE ${S}.feedback (
        run_id text NOT NULL REFERENCES ${S}.runs ON DELETE CASCADE,
        subject_id text NOT NULL,
        message_id text NOT NULL,
        rating text NOT NULL CHECK (rating IN ('up', 'down')),
        comment text,
        updated_at bigint NOT NULL,
        PRIMARY KEY (run_id, subject_id, message_id)
      );
      CREATE TABLE ${S}.executor_leases (
        subject_id text NOT NULL,
        executor_id text NOT NULL,
        tools_json text NOT NULL,
        expires_at bigint NOT NULL,
        refreshed bigserial NOT NULL,
        PRIMARY KEY (subject_id, executor_id)
      );
      CREATE INDEX executor_leases_by_expiry ON ${S}.executor_leases (expires_at);
      -- An append that neither ends its run nor completes an idempotency record, in one round trip:
      -- 'appended', 'missing', 'closed' or 'conflict:<lastSeq>'. Its NOTIFY is delivered at commit.
      CREATE FUNCTION ${S}.append_events(run text, expected integer, seqs integer[], envelopes text[],
        channel text) RETURNS text
      LANGUAGE plpgsql AS $fn$
      DECLARE
        found_seq integer;
        found_end bigint;
      BEGIN
        SELECT r.last_seq, r.ended_at INTO found_seq, found_end FROM ${S}.runs r WHERE r.run_id = run FOR UPDATE;
        IF NOT FOUND THEN RETURN 'missing'; END IF;
        IF found_end IS NOT NULL THEN RETURN 'closed'; END IF;
        IF found_seq <> expected THEN RETURN 'conflict:' || found_seq; END IF;
        INSERT INTO ${S}.events (run_id, seq, envelope_json)
          SELECT run, batch.seq, batch.envelope FROM unnest(seqs, envelopes) AS batch (seq, envelope);
        UPDATE ${S}.runs r SET last_seq = seqs[array_length(seqs, 1)] WHERE r.run_id = run;
        PERFORM pg_notify(channel, seqs[array_length(seqs, 1)] || ':' || run);
        RETURN 'appended';
      END
      $fn$;
      -- How many executor leases are kept (expired ones until taken), so a connect counts the live
      -- ones only when the store may be full.
      CREATE TABLE ${S}.executor_lease_total (id boolean PRIMARY KEY DEFAULT true CHECK (id), n bigint NOT NULL);
      INSERT INTO ${S}.executor_lease_total (n) VALUES (0);
      CREATE FUNCTION ${S}.count_executor_leases() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        UPDATE ${S}.executor_lease_total SET n = n + (CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END);
        RETURN NULL;
      END
      $fn$;
      CREATE TRIGGER executor_leases_counted AFTER INSERT OR DELETE ON ${S}.executor_leases
        FOR EACH ROW EXECUTE FUNCTION ${S}.count_executor_leases();
      -- ExecutorLeaseStore.connect in one round trip, one connect at a time (a transaction lock).
      CREATE FUNCTION ${S}.connect_executor(subject text, executor text, tools text, now_ms bigint,
        expires_ms bigint, max_per_subject bigint, max_executors bigint) RETURNS boolean
      LANGUAGE plpgsql AS $fn$
      DECLARE
        is_new boolean;
        live bigint;
        held bigint;
        victim record;
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtext('agent-chat-executors:' || '${S}'));
        SELECT COUNT(*), NOT bool_or(l.executor_id = executor) INTO held, is_new
          FROM ${S}.executor_leases l WHERE l.subject_id = subject;
        is_new := coalesce(is_new, true);
        IF is_new AND held < max_per_subject
          AND (SELECT t.n FROM ${S}.executor_lease_total t) >= max_executors THEN
          SELECT COUNT(*) INTO live FROM ${S}.executor_leases l WHERE l.expires_at > now_ms;
          IF live >= max_executors THEN
            -- A newcomer takes the oldest live lease of a subject holding more than one.
            IF held > 0 THEN RETURN false; END IF;
            SELECT l.subject_id, l.executor_id INTO victim FROM ${S}.executor_leases l
              WHERE l.expires_at > now_ms
                AND EXISTS (SELECT 1 FROM ${S}.executor_leases o
                  WHERE o.subject_id = l.subject_id AND o.executor_id <> l.executor_id)
              ORDER BY l.expires_at LIMIT 1;
            IF NOT FOUND THEN RETURN false; END IF;
            DELETE FROM ${S}.executor_leases l
              WHERE l.subject_id = victim.subject_id AND l.executor_id = victim.executor_id;
          END IF;
        END IF;
        INSERT INTO ${S}.executor_leases AS l (subject_id, executor_id, tools_json, expires_at)
          VALUES (subject, executor, tools, expires_ms)
          ON CONFLICT (subject_id, executor_id) DO UPDATE SET tools_json = excluded.tools_json,
            expires_at = excluded.expires_at,
            refreshed = nextval(pg_get_serial_sequence('${S}.executor_leases', 'refreshed'));
        IF is_new AND held >= max_per_subject THEN
          DELETE FROM ${S}.executor_leases l WHERE l.subject_id = subject AND l.executor_id IN (
            SELECT o.executor_id FROM ${S}.executor_leases o WHERE o.subject_id = subject
            ORDER BY o.refreshed LIMIT held + 1 - max_per_subject);
        END IF;
        RETURN true;
      END
      $fn$;
      CREATE TABLE ${S}.rate_buckets (
        bucket text PRIMARY KEY,
        full_at bigint NOT NULL,
        expires_at bigint NOT NULL
      );
    `,
  },
];

/**
 * Brings the schema to the newest version: creates it and `schema_version` when missing, then
 * applies each step above the recorded version in its own transaction under an advisory lock on
 * the schema's name (so processes that start together apply each step once). Refuses a schema
 * newer than this code. Returns the version the schema is at.
 */
export async function migratePostgres(
  connection: PostgresConnection,
  options: { migrations?: readonly PostgresMigration[]; now?: () => number } = {},
): Promise<number> {
  const migrations = [...(options.migrations ?? POSTGRES_MIGRATIONS)].sort((a, b) => a.version - b.version);
  const now = options.now ?? Date.now;
  const { s } = connection;
  const newest = migrations.reduce((max, step) => Math.max(max, step.version), 0);
  const lock = async (sql: Parameters<Parameters<PostgresConnection['transaction']>[0]>[0]): Promise<number> => {
    await sql('SELECT pg_advisory_xact_lock(hashtext($1))', [`agent-chat-migrate:${connection.schema}`]);
    await sql(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await sql(`CREATE TABLE IF NOT EXISTS ${s}.schema_version (
      version integer PRIMARY KEY, description text NOT NULL, applied_at bigint NOT NULL)`);
    const { rows } = await sql<{ version: number | null }>(`SELECT MAX(version) AS version FROM ${s}.schema_version`);
    return rows[0]?.version ?? 0;
  };
  for (const step of migrations) {
    await connection.transaction(async (sql) => {
      const current = await lock(sql);
      if (current > newest) {
        throw new Error(
          `The Postgres schema ${connection.schema} is at version ${current}; this server knows up to ${newest}.`,
        );
      }
      if (current >= step.version) return;
      await sql(step.sql(s));
      await sql(`INSERT INTO ${s}.schema_version (version, description, applied_at) VALUES ($1, $2, $3)`, [
        step.version,
        step.description,
        now(),
      ]);
    });
  }
  return connection.transaction(lock);
}
