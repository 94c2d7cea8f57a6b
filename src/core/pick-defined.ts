/**
 * Returns a copy of `fields` without the keys whose value is `undefined`, so optional wire fields
 * stay absent (not `undefined`-valued) in snapshots and request bodies.
 */
export function pickDefined<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;
}
