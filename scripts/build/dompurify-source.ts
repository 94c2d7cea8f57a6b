import { onlyOne, type AstNode, type PlacedNode } from './list-ast-nodes.ts';

/** The file of DOMPurify the IIFE bundles, relative to the repository root. */
export const DOMPURIFY_FILE = '/node_modules/dompurify/dist/purify.es.mjs';

/**
 * The `function createDOMPurify()` declaration among the listed nodes of `purify.es.mjs`, the
 * factory every DOMPurify transform edits, or `{ error }` unless there is exactly one.
 */
export function findCreateDomPurify(nodes: PlacedNode[]): AstNode | { error: string } {
  const factory = onlyOne(
    nodes.filter(
      ({ node }) => node.type === 'FunctionDeclaration' && (node.id as AstNode | null)?.name === 'createDOMPurify',
    ),
  )?.node;
  return factory ?? { error: 'purify.es.mjs no longer declares createDOMPurify once' };
}
