import type { ManifestFile } from './create-manifest.ts';
import { formatKb } from './format-size-table.ts';

/** The IIFE's gzip budget in bytes (1 KB = 1000 bytes): issue 6 sets 55 KB. */
export const IIFE_GZIP_BUDGET_BYTES = 55_000;

/**
 * The gzip size the build refuses to pass while the IIFE is still over its budget (57,039 bytes
 * when this was set). It only ever moves down, towards the budget, as size work lands; the build
 * reports the distance to the budget on every run.
 */
export const IIFE_GZIP_CEILING_BYTES = 57_500;

/** Judges one file's gzip size against a budget; the message states both numbers either way. */
export function checkSizeBudget(options: { name: string; file: ManifestFile; budgetBytes: number }): { isWithin: boolean; message: string } {
  const isWithin = options.file.gzipBytes <= options.budgetBytes;
  const figures = `${options.name}: ${formatKb(options.file.gzipBytes)} gzip (${options.file.gzipBytes} bytes), budget ${formatKb(options.budgetBytes)} (${options.budgetBytes} bytes)`;
  return { isWithin, message: isWithin ? `size check passed — ${figures}` : `size check FAILED — ${figures}` };
}
