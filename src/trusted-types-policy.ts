import type { Config } from 'dompurify';

/**
 * The Trusted Types policy name the widget creates (once, lazily, only when `window.trustedTypes`
 * exists). A host page with `require-trusted-types-for 'script'` must list it: `trusted-types
 * agent-chat` (docs/embedding.md, "Content Security Policy").
 */
export const TRUSTED_TYPES_POLICY_NAME = 'agent-chat';

/** The policy object as DOMPurify takes it (`createHTML` and `createScriptURL`). */
export type WidgetPolicy = NonNullable<Config['TRUSTED_TYPES_POLICY']>;

interface PolicyFactory {
  createPolicy(
    name: string,
    rules: { createHTML(input: string): string; createScriptURL(input: string): string },
  ): WidgetPolicy;
}

/** The only script URLs the policy passes: the script tag's part files (src/parts/load-part-file.ts). */
const allowedScriptUrls = new Set<string>();
let policy: WidgetPolicy | null | undefined;

/**
 * Lets the policy pass `url` as a script URL: the script tag's loader calls it for each sibling
 * file it is about to load (with that file's integrity). Any other URL throws.
 */
export function allowScriptUrl(url: string): void {
  allowedScriptUrls.add(url);
}

/**
 * The widget's `agent-chat` policy, or `null` without Trusted Types or when the page refuses the
 * name (or another copy created it first). `createHTML` is handed only to the private DOMPurify
 * instance, which parses into an inert document; `createScriptURL` passes only the URLs given to
 * {@link allowScriptUrl} and throws on any other.
 */
export function getTrustedTypesPolicy(): WidgetPolicy | null {
  if (policy !== undefined) return policy;
  const factory = (window as { trustedTypes?: PolicyFactory }).trustedTypes;
  policy = null;
  if (!factory) return policy;
  try {
    policy = factory.createPolicy(TRUSTED_TYPES_POLICY_NAME, {
      createHTML: (input: string) => input,
      createScriptURL: (input: string) => {
        if (!allowedScriptUrls.has(input)) throw new TypeError(`agent-chat: not its file: ${input}`);
        return input;
      },
    });
  } catch {
    policy = null;
  }
  return policy;
}
