import type { Plugin } from 'vite';
import { createDependencyTransformPlugin } from './dependency-transform-plugin.ts';
import { checkSanitizeConfigUse } from './check-sanitize-config-use.ts';
import { DOMPURIFY_FILE, findCreateDomPurify } from './dompurify-source.ts';
import { applyEdits, findUseOutsideEdits, listAstNodes, onlyOne, type AstNode, type Edit } from './list-ast-nodes.ts';

/** What in `createDOMPurify` exists only for `CUSTOM_ELEMENT_HANDLING` and the `ADD_TAGS`/`ADD_ATTR` options. */
const CUT_DECLARATIONS = [
  'CUSTOM_ELEMENT_HANDLING',
  'DEFAULT_CUSTOM_ELEMENT_HANDLING',
  'EXTRA_ELEMENT_HANDLING',
  'isRegexOrFunction',
  '_matchesNameCheck',
  'RESERVED_CUSTOM_ELEMENT_NAMES',
  '_isBasicCustomElement',
];

/** `_parseConfig`'s statements that read those options, as written (whitespace aside). */
const CUT_STATEMENTS = [
  'const customElementHandling = _resolveObjectOption(cfg, "CUSTOM_ELEMENT_HANDLING", DEFAULT_CUSTOM_ELEMENT_HANDLING);',
  'CUSTOM_ELEMENT_HANDLING = create(null);',
  'if (objectHasOwnProperty(customElementHandling, "tagNameCheck") && isRegexOrFunction(customElementHandling.tagNameCheck)) CUSTOM_ELEMENT_HANDLING.tagNameCheck = customElementHandling.tagNameCheck;',
  'if (objectHasOwnProperty(customElementHandling, "attributeNameCheck") && isRegexOrFunction(customElementHandling.attributeNameCheck)) CUSTOM_ELEMENT_HANDLING.attributeNameCheck = customElementHandling.attributeNameCheck;',
  'if (objectHasOwnProperty(customElementHandling, "allowCustomizedBuiltInElements") && typeof customElementHandling.allowCustomizedBuiltInElements === "boolean") CUSTOM_ELEMENT_HANDLING.allowCustomizedBuiltInElements = customElementHandling.allowCustomizedBuiltInElements;',
  'seal(CUSTOM_ELEMENT_HANDLING);',
  'EXTRA_ELEMENT_HANDLING.tagCheck = null;',
  'EXTRA_ELEMENT_HANDLING.attributeCheck = null;',
  'if (objectHasOwnProperty(cfg, "ADD_TAGS")) { if (typeof cfg.ADD_TAGS === "function") EXTRA_ELEMENT_HANDLING.tagCheck = cfg.ADD_TAGS; else if (arrayIsArray(cfg.ADD_TAGS)) { if (ALLOWED_TAGS === DEFAULT_ALLOWED_TAGS) ALLOWED_TAGS = cloneSet(ALLOWED_TAGS); addToSet(ALLOWED_TAGS, cfg.ADD_TAGS, transformCaseFunc); } }',
  'if (objectHasOwnProperty(cfg, "ADD_ATTR")) { if (typeof cfg.ADD_ATTR === "function") EXTRA_ELEMENT_HANDLING.attributeCheck = cfg.ADD_ATTR; else if (arrayIsArray(cfg.ADD_ATTR)) { if (ALLOWED_ATTR === DEFAULT_ALLOWED_ATTR) ALLOWED_ATTR = cloneSet(ALLOWED_ATTR); addToSet(ALLOWED_ATTR, cfg.ADD_ATTR, transformCaseFunc); } }',
  'if (!FORBID_TAGS[tagName] && _isBasicCustomElement(tagName) && _matchesNameCheck(CUSTOM_ELEMENT_HANDLING.tagNameCheck, tagName)) return false;',
];

/**
 * The checks of elements and attributes that read those options, as written, with what each is
 * when the options are absent: no tag or attribute check function (`ADD_TAGS`/`ADD_ATTR` as
 * functions), and no custom element name checks, so `_matchesNameCheck` would answer `false`.
 */
const REWRITTEN_EXPRESSIONS = [
  {
    from: 'FORBID_TAGS[tagName] || !(EXTRA_ELEMENT_HANDLING.tagCheck instanceof Function && EXTRA_ELEMENT_HANDLING.tagCheck(tagName)) && !ALLOWED_TAGS[tagName]',
    to: 'FORBID_TAGS[tagName] || !ALLOWED_TAGS[tagName]',
  },
  {
    from: 'ALLOWED_ATTR[lcName] || EXTRA_ELEMENT_HANDLING.attributeCheck instanceof Function && EXTRA_ELEMENT_HANDLING.attributeCheck(lcName, lcTag)',
    to: 'ALLOWED_ATTR[lcName]',
  },
  {
    from: '_isBasicCustomElement(lcTag) && _matchesNameCheck(CUSTOM_ELEMENT_HANDLING.tagNameCheck, lcTag) && _matchesNameCheck(CUSTOM_ELEMENT_HANDLING.attributeNameCheck, lcName, lcTag) || lcName === "is" && CUSTOM_ELEMENT_HANDLING.allowCustomizedBuiltInElements && _matchesNameCheck(CUSTOM_ELEMENT_HANDLING.tagNameCheck, value)',
    to: 'false',
  },
];

/**
 * Cuts DOMPurify's configurable name checks, which the widget never configures (about 350 B
 * gzip): `CUSTOM_ELEMENT_HANDLING` (custom element names and their attributes, customized
 * built-ins through `is`) and the `ADD_TAGS`/`ADD_ATTR` options (as lists or as check functions).
 * The widget's config sets none of them ({@link checkSanitizeConfigUse}), so DOMPurify keeps no
 * custom element and no `is` attribute, and allows exactly `ALLOWED_TAGS` and `ALLOWED_ATTR`, with
 * or without this cut. Fails the build if one of the cut statements or checks is not found once
 * as written, or if anything cut is still used elsewhere. The ESM build keeps DOMPurify whole.
 */
export function cutDomPurifyNameChecks(): Plugin {
  return createDependencyTransformPlugin({
    name: 'agent-chat:cut-dompurify-name-checks',
    dependencyFile: DOMPURIFY_FILE,
    userModule: '/src/ui/markdown/sanitize-html.ts',
    definedIn: 'scripts/build/cut-dompurify-name-checks.ts',
    transform: cutNameChecks,
    checkUse: checkSanitizeConfigUse,
  });
}

/** The cut of {@link cutDomPurifyNameChecks} on the text of `purify.es.mjs`, or `{ error }` naming what changed shape. */
export function cutNameChecks(code: string): string | { error: string } {
  const nodes = listAstNodes('purify.es.mjs', code);
  if (!Array.isArray(nodes)) return nodes;
  const factory = findCreateDomPurify(nodes);
  if ('error' in factory) return { error: factory.error as string };
  const edits: Edit[] = [];
  const textOf = (node: AstNode): string => code.slice(node.start, node.end).replace(/\s+/g, ' ');
  for (const name of CUT_DECLARATIONS) {
    const declarations = (factory.body as AstNode).body as AstNode[];
    const declaration = onlyOne(
      declarations.filter(
        (statement) =>
          statement.type === 'VariableDeclaration' &&
          (statement.declarations as AstNode[]).length === 1 &&
          ((statement.declarations as AstNode[])[0]?.id as AstNode).name === name,
      ),
    );
    if (!declaration) return { error: `createDOMPurify no longer declares ${name} once on its own` };
    edits.push({ start: declaration.start, end: declaration.end, text: '' });
  }
  const pieces = [
    ...CUT_STATEMENTS.map((text) => ({ from: text, to: ';', isStatement: true })),
    ...REWRITTEN_EXPRESSIONS.map((rewrite) => ({ ...rewrite, isStatement: false })),
  ];
  for (const piece of pieces) {
    const match = onlyOne(
      nodes.filter(
        ({ node }) => /Statement|Declaration$/.test(node.type) === piece.isStatement && textOf(node) === piece.from,
      ),
    )?.node;
    if (!match) return { error: `purify.es.mjs no longer has once: ${piece.from.slice(0, 100)}` };
    edits.push({ start: match.start, end: match.end, text: piece.isStatement ? piece.to : `(${piece.to})` });
  }
  const stillUsed = findUseOutsideEdits(nodes, CUT_DECLARATIONS, edits);
  if (stillUsed !== undefined) return { error: `purify.es.mjs still uses ${stillUsed} besides what is cut` };
  return applyEdits(code, edits);
}
