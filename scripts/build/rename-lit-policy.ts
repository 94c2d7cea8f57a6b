import type { Plugin } from 'vite';

/** lit-html's production file, whose Trusted Types policy the plugin renames. */
const LIT_HTML_FILE = '/node_modules/lit-html/lit-html.js';
/** lit-html's Trusted Types policy, exactly as its production build creates it. */
const LIT_POLICY = 'createPolicy("lit-html",';

/**
 * Renames the Trusted Types policy of the Lit copy in `code` (lit-html's production file) to
 * `policyName`, or says why it cannot: the policy must be created exactly once, as expected.
 */
export function renameLitPolicyIn(code: string, policyName: string): string | { error: string } {
  const count = code.split(LIT_POLICY).length - 1;
  if (count !== 1) return { error: `lit-html's lit-html.js has ${count} copies of ${LIT_POLICY}, not 1` };
  return code.replace(LIT_POLICY, `createPolicy(${JSON.stringify(policyName)},`);
}

/**
 * Gives the Lit copy of a sibling file its own Trusted Types policy name: the build's one edit of a
 * dependency's text, a string literal (docs/embedding.md, "Content Security Policy"). A page under
 * `trusted-types agent-chat lit-html` refuses a second policy named `lit-html` (agent-chat.js
 * created it), which would stop the file at load; with its own name (listed in the page's policy)
 * the two copies of Lit load in either order. Fails the build when lit-html's file does not create
 * its policy exactly once as expected, or when the file was never bundled (Lit moved it).
 */
export function renameLitPolicy(policyName: string): Plugin {
  let isRenamed = false;
  return {
    name: 'agent-chat:rename-lit-policy',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith(LIT_HTML_FILE)) return null;
      const result = renameLitPolicyIn(code, policyName);
      if (typeof result !== 'string') this.error(`${result.error}; update scripts/build/rename-lit-policy.ts`);
      isRenamed = true;
      return { code: result, map: null };
    },
    buildEnd(error) {
      if (!error && !isRenamed) {
        this.error(
          `${LIT_HTML_FILE} was never bundled, so its policy was not renamed; update scripts/build/rename-lit-policy.ts`,
        );
      }
    },
  };
}
