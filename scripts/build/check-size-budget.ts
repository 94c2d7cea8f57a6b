import type { ManifestFile } from './create-manifest.ts';
import { formatKb } from './format-size-table.ts';

/**
 * The IIFE's gzip budget in bytes (1 KB = 1000 bytes), with lit, marked and dompurify exactly as
 * their authors publish them (docs/benchmarks.md, "Size"). The build fails above it; features
 * that only some hosts use go to files of their own (src/parts/part-table.ts, which holds their budgets) rather than over it.
 */
export const IIFE_GZIP_BUDGET_BYTES = 65_000;

/**
 * The browser tools IIFE's gzip budget in bytes (`agent-chat-tools.js`, loaded only by pages that
 * run tools): the runner, its IndexedDB store and the core pieces they use. The build fails above it.
 */
export const TOOLS_IIFE_GZIP_BUDGET_BYTES = 8_000;

/** Judges one file's gzip size against a budget; the message states both numbers, and the brotli size beside, either way. */
export function checkSizeBudget(options: { name: string; file: ManifestFile; budgetBytes: number }): {
  isWithin: boolean;
  message: string;
} {
  const { file } = options;
  const isWithin = file.gzipBytes <= options.budgetBytes;
  const figures = `${options.name}: ${formatKb(file.gzipBytes)} gzip (${file.gzipBytes} bytes, brotli ${file.brotliBytes} bytes), budget ${formatKb(options.budgetBytes)} gzip (${options.budgetBytes} bytes)`;
  return { isWithin, message: isWithin ? `size check passed — ${figures}` : `size check FAILED — ${figures}` };
}
