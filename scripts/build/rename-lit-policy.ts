import type { Plugin } from 'vite';
import { createDependencyTransformPlugin } from './dependency-transform-plugin.ts';

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
 * Gives the Lit copy of an opt-in script-tag file its own Trusted Types policy name. A page under
 * `trusted-types agent-chat lit-html` refuses a second policy named `lit-html` (agent-chat.js
 * created it), which would stop the file at load; with its own name (listed in the page's policy,
 * docs/embedding.md, "Content Security Policy") the two copies of Lit load in either order.
 */
export function renameLitPolicy(policyName: string): Plugin {
  return createDependencyTransformPlugin({
    name: 'agent-chat:rename-lit-policy',
    dependencyFile: '/node_modules/lit-html/lit-html.js',
    userModule: '/src/ui/conversations/conversations-panel.ts',
    definedIn: 'scripts/build/rename-lit-policy.ts',
    transform: (code) => renameLitPolicyIn(code, policyName),
    checkUse: () => null,
  });
}
