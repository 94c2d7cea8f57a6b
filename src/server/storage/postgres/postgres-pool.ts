/**
 * A `pg` pool of the product's own (`new pg.Pool(…)`), named by what the Postgres storage uses of
 * it, so that the package's types never name `pg`: a product without Postgres compiles strictly
 * (`skipLibCheck: false`) without `pg` or `@types/pg` installed.
 */
export interface PostgresPool {
  connect(): Promise<unknown>;
  query(...args: never[]): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}
