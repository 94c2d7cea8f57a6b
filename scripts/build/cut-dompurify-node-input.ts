import type { Plugin } from 'vite';
import { createDependencyTransformPlugin } from './dependency-transform-plugin.ts';
import { checkSanitizeConfigUse } from './check-sanitize-config-use.ts';
import { DOMPURIFY_FILE } from './dompurify-source.ts';
import { applyEdits, listAstNodes, onlyOne, type AstNode, type Edit } from './list-ast-nodes.ts';

/** `_sanitize`'s turning of input that is neither a string nor a node into a string, as written (whitespace aside). */
const STRINGIFY_INPUT =
  'if (typeof dirty !== "string" && !_isNode(dirty)) { dirty = stringifyValue(dirty); if (typeof dirty !== "string") throw typeErrorCreate("dirty is not a string, aborting"); }';

/** `_sanitize`'s test for a node as input, the head of the branch that imports and sanitizes a copy of it. */
const NODE_INPUT_TEST = '_isNode(dirty)';

/**
 * Cuts DOMPurify's handling of input that is not a string (about 250 B gzip): the conversion of
 * other values to a string (`stringifyValue`) and the branch that imports a node given as input.
 * The widget only ever sanitizes the renderer's HTML string: its one `sanitize` call passes the
 * `html: string` parameter of `sanitizeHtml` ({@link checkSanitizeConfigUse}). Fails the build if
 * the conversion or the node test is not found once as written inside `_sanitize`. The ESM build
 * keeps DOMPurify whole.
 */
export function cutDomPurifyNodeInput(): Plugin {
  return createDependencyTransformPlugin({
    name: 'agent-chat:cut-dompurify-node-input',
    dependencyFile: DOMPURIFY_FILE,
    userModule: '/src/ui/markdown/sanitize-html.ts',
    definedIn: 'scripts/build/cut-dompurify-node-input.ts',
    transform: cutNodeInput,
    checkUse: checkSanitizeConfigUse,
  });
}

/** The cut of {@link cutDomPurifyNodeInput} on the text of `purify.es.mjs`, or `{ error }` naming what changed shape. */
export function cutNodeInput(code: string): string | { error: string } {
  const nodes = listAstNodes('purify.es.mjs', code);
  if (!Array.isArray(nodes)) return nodes;
  const sanitize = onlyOne(
    nodes.filter(({ node }) => node.type === 'VariableDeclarator' && (node.id as AstNode).name === '_sanitize'),
  )?.node.init as AstNode | undefined;
  if (sanitize?.type !== 'FunctionExpression') {
    return { error: 'purify.es.mjs no longer declares const _sanitize = function once' };
  }
  const inSanitize = nodes.filter(({ ancestors }) => ancestors.includes(sanitize));
  const textOf = (node: AstNode): string => code.slice(node.start, node.end).replace(/\s+/g, ' ');
  const conversion = onlyOne(
    inSanitize.filter(({ node }) => node.type === 'IfStatement' && textOf(node) === STRINGIFY_INPUT),
  )?.node;
  if (!conversion) {
    return { error: `purify.es.mjs's _sanitize no longer has once: ${STRINGIFY_INPUT.slice(0, 80)}` };
  }
  const nodeTest = onlyOne(
    inSanitize.filter(({ node }) => node.type === 'IfStatement' && textOf(node.test as AstNode) === NODE_INPUT_TEST),
  )?.node.test as AstNode | undefined;
  if (!nodeTest) {
    return { error: `purify.es.mjs's _sanitize no longer has one branch if (${NODE_INPUT_TEST})` };
  }
  const edits: Edit[] = [
    { start: conversion.start, end: conversion.end, text: ';' },
    { start: nodeTest.start, end: nodeTest.end, text: 'false' },
  ];
  return applyEdits(code, edits);
}
