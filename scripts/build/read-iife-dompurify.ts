import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { BrowserCommand } from 'vitest/node';
import { cutNameChecks } from './cut-dompurify-name-checks.ts';
import { cutNodeInput } from './cut-dompurify-node-input.ts';
import { cutDomPurifyFallbacks } from './drop-dompurify-fallbacks.ts';
import { markPureCalls } from './mark-dompurify-pure-calls.ts';
import { DOMPURIFY_FILE } from './dompurify-source.ts';
import { foldDomPurifySettings } from './fold-dompurify-config.ts';
import { trimDomPurify } from './trim-dompurify-defaults.ts';

/**
 * The text of `purify.es.mjs` as the IIFE bundles it, in the order `iife-plugins.ts` runs the
 * transforms: the trim of `trim-dompurify-defaults.ts`, the cuts of `cut-dompurify-name-checks.ts`,
 * `drop-dompurify-fallbacks.ts` and `cut-dompurify-node-input.ts`, then the fold of `fold-dompurify-config.ts` and the marking of
 * `mark-dompurify-pure-calls.ts`.
 * Throws with the transform's reason when one refuses.
 */
export async function readIifeDomPurifySource(): Promise<string> {
  const code = await readFile(fileURLToPath(new URL(`../..${DOMPURIFY_FILE}`, import.meta.url)), 'utf8');
  const trimmed = trimDomPurify(code);
  if (typeof trimmed !== 'string') throw new Error(trimmed.error);
  const cut = cutNameChecks(trimmed);
  if (typeof cut !== 'string') throw new Error(cut.error);
  const withoutFallbacks = cutDomPurifyFallbacks(cut);
  if (typeof withoutFallbacks !== 'string') throw new Error(withoutFallbacks.error);
  const stringOnly = cutNodeInput(withoutFallbacks);
  if (typeof stringOnly !== 'string') throw new Error(stringOnly.error);
  const folded = foldDomPurifySettings(stringOnly);
  if (typeof folded !== 'string') throw new Error(folded.error);
  const marked = markPureCalls(folded);
  if (typeof marked !== 'string') throw new Error(marked.error);
  return marked;
}

/** The browser-test command (`commands.readIifeDomPurify()`) that hands {@link readIifeDomPurifySource} to the page. */
export const readIifeDomPurify: BrowserCommand<[]> = () => readIifeDomPurifySource();
