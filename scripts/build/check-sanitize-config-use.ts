import { listAstNodes, type AstNode } from './list-ast-nodes.ts';

/** The one module of ours that calls DOMPurify, and the name of its config there. */
const SANITIZER = '/src/ui/markdown/sanitize-html.ts';
const CONFIG_NAME = 'SANITIZE_CONFIG';

/**
 * The widget's DOMPurify config as `scripts/build/fold-dompurify-config.ts` folds it: each option
 * with the literal it must have, or `null` where any value goes (the lists and the link pattern).
 */
export const EXPECTED_SANITIZE_CONFIG: Readonly<Record<string, string | null>> = {
  ALLOWED_TAGS: null,
  ALLOWED_ATTR: null,
  ALLOW_DATA_ATTR: 'false',
  ALLOW_ARIA_ATTR: 'false',
  ALLOW_UNKNOWN_PROTOCOLS: 'false',
  ALLOWED_URI_REGEXP: null,
  RETURN_DOM_FRAGMENT: 'true',
};

/**
 * Why a module of ours breaks the DOMPurify config fold's assumption, or `null`: no module but
 * `sanitize-html.ts` names `SANITIZE_CONFIG`; there it is one object literal with exactly the
 * options of {@link EXPECTED_SANITIZE_CONFIG} (fixed ones with their literal), and the module's
 * only `sanitize(…)` call passes a `string` parameter of its function as the input and
 * `SANITIZE_CONFIG`, or a copy that adds only `TRUSTED_TYPES_POLICY`, as the config.
 */
export function checkSanitizeConfigUse(code: string, id: string): string | null {
  if (!id.endsWith(SANITIZER)) {
    return new RegExp(`\\b${CONFIG_NAME}\\b`).test(code) ? `${id} uses ${CONFIG_NAME}; only ${SANITIZER} may` : null;
  }
  const nodes = listAstNodes('sanitize-html.ts', code);
  if (!Array.isArray(nodes)) return nodes.error;
  const declarators = nodes.filter(
    ({ node }) => node.type === 'VariableDeclarator' && (node.id as AstNode).name === CONFIG_NAME,
  );
  const config = declarators[0]?.node.init as AstNode | undefined;
  if (declarators.length !== 1 || config?.type !== 'ObjectExpression') {
    return `${SANITIZER} must declare ${CONFIG_NAME} once as an object literal`;
  }
  const problem = checkConfigLiteral(code, config);
  if (problem) return `${SANITIZER}'s ${CONFIG_NAME} ${problem}`;
  const calls = nodes.filter(
    ({ node }) =>
      node.type === 'CallExpression' &&
      (node.callee as AstNode).type === 'MemberExpression' &&
      ((node.callee as AstNode).property as AstNode).name === 'sanitize',
  );
  const [input, configArgument] = (calls[0]?.node.arguments as AstNode[] | undefined) ?? [];
  if (calls.length !== 1 || !input || !configArgument) {
    return `${SANITIZER} must call sanitize(html, config) exactly once`;
  }
  const caller = calls[0]?.ancestors.findLast((node) => /Function/.test(node.type));
  const parameter = ((caller?.params as AstNode[] | undefined) ?? []).find(
    (param) => param.type === 'Identifier' && param.name === input.name,
  );
  const inputType = (parameter?.typeAnnotation as AstNode | undefined)?.typeAnnotation as AstNode | undefined;
  if (input.type !== 'Identifier' || inputType?.type !== 'TSStringKeyword') {
    return `${SANITIZER} must pass sanitize() a string parameter of its caller as the input`;
  }
  const passed =
    configArgument.type === 'ConditionalExpression'
      ? [configArgument.consequent, configArgument.alternate]
      : [configArgument];
  if (!passed.every((argument) => isWidgetConfig(argument as AstNode))) {
    return `${SANITIZER} must pass sanitize() ${CONFIG_NAME} or { ...${CONFIG_NAME}, TRUSTED_TYPES_POLICY }`;
  }
  const references = nodes.filter(({ node }) => node.type === 'Identifier' && node.name === CONFIG_NAME);
  const expected = 1 + passed.length;
  return references.length === expected ? null : `${SANITIZER} must use ${CONFIG_NAME} only in its sanitize() call`;
}

/** What is wrong with the config object literal, or `null`. */
function checkConfigLiteral(code: string, config: AstNode): string | null {
  const seen = new Set<string>();
  for (const property of config.properties as AstNode[]) {
    const key =
      property.type === 'Property' && !property.computed ? ((property.key as AstNode).name as string) : undefined;
    if (key === undefined || !(key in EXPECTED_SANITIZE_CONFIG)) {
      return `sets ${code.slice(property.start, property.end).slice(0, 60)}, which the IIFE's DOMPurify does not read`;
    }
    const value = property.value as AstNode;
    const expected = EXPECTED_SANITIZE_CONFIG[key];
    if (expected !== null && code.slice(value.start, value.end) !== expected) return `must set ${key}: ${expected}`;
    seen.add(key);
  }
  const missing = Object.keys(EXPECTED_SANITIZE_CONFIG).find((key) => !seen.has(key));
  return missing ? `must set ${missing}` : null;
}

/** Whether a config argument is `SANITIZE_CONFIG` or `{ ...SANITIZE_CONFIG, TRUSTED_TYPES_POLICY: … }`. */
function isWidgetConfig(argument: AstNode): boolean {
  if (argument.type === 'Identifier') return argument.name === CONFIG_NAME;
  if (argument.type !== 'ObjectExpression') return false;
  const [spread, policy, ...rest] = argument.properties as AstNode[];
  return (
    rest.length === 0 &&
    spread?.type === 'SpreadElement' &&
    (spread.argument as AstNode).name === CONFIG_NAME &&
    policy?.type === 'Property' &&
    !policy.computed &&
    (policy.key as AstNode).name === 'TRUSTED_TYPES_POLICY'
  );
}
