import { inject } from 'vitest';
import { dropPostgresSchema } from './postgres/test-support/drop-postgres-schema.ts';
import { describeScaleOut } from './test-support/scale-out-suite.ts';

// Postgres alone, no Redis: the suite's private Postgres, in a schema of this file's own.
describeScaleOut([
  [
    'one Postgres (DATABASE_URL)',
    async () => {
      const connectionString = inject('postgresUrl');
      const schema = `scale_out_${process.pid}`;
      await dropPostgresSchema({ connectionString, schema });
      return {
        env: { DATABASE_URL: connectionString, AGENT_CHAT_PG_SCHEMA: schema },
        stop: () => dropPostgresSchema({ connectionString, schema }),
      };
    },
  ],
]);
