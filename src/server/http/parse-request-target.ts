import { ProblemError } from './problem-error.ts';

/**
 * Parses a request target (`req.url`: origin form `/a?b`, or absolute form `http://host/a`).
 * Node passes any bytes without spaces through, and `new URL` throws on some of them (`//[`,
 * `http://x:99999/`); those are `400 VALIDATION_FAILED` (`details.reason: "malformed_target"`).
 */
export function parseRequestTarget(target: string | undefined): URL {
  try {
    return new URL(target ?? '/', 'http://localhost');
  } catch {
    throw new ProblemError({
      code: 'VALIDATION_FAILED',
      status: 400,
      detail: 'The request target is not a valid URL.',
      details: { reason: 'malformed_target' },
    });
  }
}
