import type { Plugin } from 'vite';
import { createDependencyTransformPlugin } from './dependency-transform-plugin.ts';
import { DOMPURIFY_FILE } from './dompurify-source.ts';
import { applyEdits, findUseOutsideEdits, listAstNodes, onlyOne, type AstNode, type Edit } from './list-ast-nodes.ts';

/** Babel's async-generator helper, which DOMPurify's build emits although no code of it uses it. */
const UNUSED_HELPERS = ['AsyncGenerator', '_OverloadYield'];

/** The built-ins DOMPurify replaces with a stand-in when missing: `if (!freeze) freeze = function freeze…`. */
const FALLBACK_BUILT_INS = ['freeze', 'seal', 'apply', 'construct'];

/**
 * Drops code of `purify.es.mjs` that can never run in the IIFE (about 250 B gzip): Babel's
 * `AsyncGenerator` helper (with `_OverloadYield` and the methods it puts on its prototype), which
 * nothing in DOMPurify calls, and the stand-ins for `Object.freeze`, `Object.seal`, `Reflect.apply`
 * and `Reflect.construct`, which every engine that parses the IIFE's es2022 syntax (class fields,
 * `#private`, `??=`) has. Fails the build if a helper is used after all, or if a fallback is not
 * `if (!name) name = function name(…) {…};` once. The ESM build keeps DOMPurify whole.
 */
export function dropDomPurifyFallbacks(): Plugin {
  return createDependencyTransformPlugin({
    name: 'agent-chat:drop-dompurify-fallbacks',
    dependencyFile: DOMPURIFY_FILE,
    userModule: '/src/ui/markdown/sanitize-html.ts',
    definedIn: 'scripts/build/drop-dompurify-fallbacks.ts',
    transform: cutDomPurifyFallbacks,
    checkUse: () => null,
  });
}

/** The cut of {@link dropDomPurifyFallbacks} on the text of `purify.es.mjs`, or `{ error }` naming what changed shape. */
export function cutDomPurifyFallbacks(code: string): string | { error: string } {
  const nodes = listAstNodes('purify.es.mjs', code);
  if (!Array.isArray(nodes)) return nodes;
  const program = nodes[0]?.node;
  const statements = (program?.body as AstNode[] | undefined) ?? [];
  const edits: Edit[] = [];
  for (const name of UNUSED_HELPERS) {
    const declaration = onlyOne(
      statements.filter(
        (statement) => statement.type === 'FunctionDeclaration' && (statement.id as AstNode).name === name,
      ),
    );
    if (!declaration) return { error: `purify.es.mjs no longer declares ${name} once` };
    edits.push({ start: declaration.start, end: declaration.end, text: '' });
  }
  const setup = onlyOne(
    statements.filter(
      (statement) =>
        statement.type === 'ExpressionStatement' &&
        code.slice(statement.start, statement.end).startsWith('AsyncGenerator.prototype['),
    ),
  );
  if (!setup) {
    return { error: 'purify.es.mjs no longer sets up AsyncGenerator.prototype in one statement' };
  }
  edits.push({ start: setup.start, end: setup.end, text: '' });
  for (const name of FALLBACK_BUILT_INS) {
    const fallback = `if (!${name}) ${name} = function ${name}(`;
    const statement = onlyOne(
      statements.filter(
        (candidate) =>
          candidate.type === 'IfStatement' && code.slice(candidate.start, candidate.end).startsWith(fallback),
      ),
    );
    if (!statement) return { error: `purify.es.mjs no longer has ${fallback}…} once` };
    edits.push({ start: statement.start, end: statement.end, text: '' });
  }
  const stillUsed = findUseOutsideEdits(nodes, UNUSED_HELPERS, edits);
  if (stillUsed !== undefined) return { error: `purify.es.mjs uses ${stillUsed}` };
  return applyEdits(code, edits);
}
