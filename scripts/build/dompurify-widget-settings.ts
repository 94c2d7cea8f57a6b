/**
 * The DOMPurify options the widget's config sets (`SANITIZE_CONFIG` in
 * `src/ui/markdown/sanitize-html.ts`, plus `TRUSTED_TYPES_POLICY` when the page has Trusted Types).
 * `_parseConfig` reads every other option as absent.
 */
export const WIDGET_DOMPURIFY_OPTIONS = [
  'ALLOWED_TAGS',
  'ALLOWED_ATTR',
  'ALLOW_DATA_ATTR',
  'ALLOW_ARIA_ATTR',
  'ALLOW_UNKNOWN_PROTOCOLS',
  'ALLOWED_URI_REGEXP',
  'RETURN_DOM_FRAGMENT',
  'TRUSTED_TYPES_POLICY',
] as const;

/** One of DOMPurify's per-call settings that is the same on every call under the widget's config. */
export interface FoldedSetting {
  /** The variable in `createDOMPurify`. */
  name: string;
  /** Its value on every call: what `_parseConfig` gives it from the widget's config. */
  value: string;
  /** Every assignment to it in `purify.es.mjs`, as written; each becomes an empty statement. */
  writes: readonly string[];
}

/**
 * DOMPurify's settings that never change under the widget's config, each with the only value
 * `_parseConfig` can give it then: the options the widget does not set are absent (so their
 * defaults hold), the ones it sets are fixed (`ALLOW_DATA_ATTR: false`, `ALLOW_ARIA_ATTR: false`,
 * `ALLOW_UNKNOWN_PROTOCOLS: false`, `RETURN_DOM_FRAGMENT: true`), and `setConfig()`, the only
 * other writer, is cut by `scripts/build/trim-dompurify-lists.ts`. `IN_PLACE_VISITED` and
 * `IN_PLACE_RETURNS` are set only on the `IN_PLACE` path, which is then never taken.
 */
export const FOLDED_DOMPURIFY_SETTINGS: readonly FoldedSetting[] = [
  {
    name: 'PARSER_MEDIA_TYPE',
    value: '"text/html"',
    writes: [
      'PARSER_MEDIA_TYPE = SUPPORTED_PARSER_MEDIA_TYPES.indexOf(cfg.PARSER_MEDIA_TYPE) === -1 ? DEFAULT_PARSER_MEDIA_TYPE : cfg.PARSER_MEDIA_TYPE',
    ],
  },
  {
    name: 'transformCaseFunc',
    value: 'stringToLowerCase',
    writes: ['transformCaseFunc = PARSER_MEDIA_TYPE === "application/xhtml+xml" ? stringToString : stringToLowerCase'],
  },
  {
    name: 'ALLOWED_NAMESPACES',
    value: 'DEFAULT_ALLOWED_NAMESPACES',
    writes: [
      'ALLOWED_NAMESPACES = _resolveSetOption(cfg, "ALLOWED_NAMESPACES", DEFAULT_ALLOWED_NAMESPACES, { transform: stringToString })',
    ],
  },
  {
    name: 'URI_SAFE_ATTRIBUTES',
    value: 'DEFAULT_URI_SAFE_ATTRIBUTES',
    writes: [
      'URI_SAFE_ATTRIBUTES = _resolveSetOption(cfg, "ADD_URI_SAFE_ATTR", DEFAULT_URI_SAFE_ATTRIBUTES, { transform: transformCaseFunc, base: DEFAULT_URI_SAFE_ATTRIBUTES })',
    ],
  },
  {
    name: 'DATA_URI_TAGS',
    value: 'DEFAULT_DATA_URI_TAGS',
    writes: [
      'DATA_URI_TAGS = _resolveSetOption(cfg, "ADD_DATA_URI_TAGS", DEFAULT_DATA_URI_TAGS, { transform: transformCaseFunc, base: DEFAULT_DATA_URI_TAGS })',
    ],
  },
  {
    name: 'FORBID_CONTENTS',
    value: 'DEFAULT_FORBID_CONTENTS',
    writes: [
      'FORBID_CONTENTS = _resolveSetOption(cfg, "FORBID_CONTENTS", DEFAULT_FORBID_CONTENTS, { transform: transformCaseFunc })',
      'FORBID_CONTENTS = cloneSet(FORBID_CONTENTS)',
    ],
  },
  {
    name: 'USE_PROFILES',
    value: 'false',
    writes: [
      'USE_PROFILES = objectHasOwnProperty(cfg, "USE_PROFILES") ? cfg.USE_PROFILES && typeof cfg.USE_PROFILES === "object" ? clone(cfg.USE_PROFILES) : cfg.USE_PROFILES : false',
    ],
  },
  { name: 'ALLOW_ARIA_ATTR', value: 'false', writes: ['ALLOW_ARIA_ATTR = cfg.ALLOW_ARIA_ATTR !== false'] },
  {
    name: 'ALLOW_DATA_ATTR',
    value: 'false',
    writes: ['ALLOW_DATA_ATTR = cfg.ALLOW_DATA_ATTR !== false', 'ALLOW_DATA_ATTR = false'],
  },
  {
    name: 'ALLOW_UNKNOWN_PROTOCOLS',
    value: 'false',
    writes: ['ALLOW_UNKNOWN_PROTOCOLS = cfg.ALLOW_UNKNOWN_PROTOCOLS || false'],
  },
  {
    name: 'ALLOW_SELF_CLOSE_IN_ATTR',
    value: 'true',
    writes: ['ALLOW_SELF_CLOSE_IN_ATTR = cfg.ALLOW_SELF_CLOSE_IN_ATTR !== false'],
  },
  { name: 'SAFE_FOR_TEMPLATES', value: 'false', writes: ['SAFE_FOR_TEMPLATES = cfg.SAFE_FOR_TEMPLATES || false'] },
  { name: 'SAFE_FOR_XML', value: 'true', writes: ['SAFE_FOR_XML = cfg.SAFE_FOR_XML !== false'] },
  { name: 'WHOLE_DOCUMENT', value: 'false', writes: ['WHOLE_DOCUMENT = cfg.WHOLE_DOCUMENT || false'] },
  { name: 'RETURN_DOM', value: 'true', writes: ['RETURN_DOM = cfg.RETURN_DOM || false', 'RETURN_DOM = true'] },
  { name: 'RETURN_DOM_FRAGMENT', value: 'true', writes: ['RETURN_DOM_FRAGMENT = cfg.RETURN_DOM_FRAGMENT || false'] },
  { name: 'RETURN_TRUSTED_TYPE', value: 'false', writes: ['RETURN_TRUSTED_TYPE = cfg.RETURN_TRUSTED_TYPE || false'] },
  { name: 'FORCE_BODY', value: 'false', writes: ['FORCE_BODY = cfg.FORCE_BODY || false'] },
  { name: 'SANITIZE_DOM', value: 'true', writes: ['SANITIZE_DOM = cfg.SANITIZE_DOM !== false'] },
  {
    name: 'SANITIZE_NAMED_PROPS',
    value: 'false',
    writes: ['SANITIZE_NAMED_PROPS = cfg.SANITIZE_NAMED_PROPS || false'],
  },
  { name: 'KEEP_CONTENT', value: 'true', writes: ['KEEP_CONTENT = cfg.KEEP_CONTENT !== false'] },
  { name: 'IN_PLACE', value: 'false', writes: ['IN_PLACE = cfg.IN_PLACE || false'] },
  {
    name: 'IN_PLACE_VISITED',
    value: 'null',
    writes: ['IN_PLACE_VISITED = setCreate()', 'IN_PLACE_VISITED = outerVisited'],
  },
  {
    name: 'IN_PLACE_RETURNS',
    value: 'null',
    writes: ['IN_PLACE_RETURNS = mapCreate()', 'IN_PLACE_RETURNS = outerReturns'],
  },
  {
    name: 'NAMESPACE',
    value: 'HTML_NAMESPACE',
    writes: ['NAMESPACE = typeof cfg.NAMESPACE === "string" ? cfg.NAMESPACE : HTML_NAMESPACE'],
  },
  {
    name: 'MATHML_TEXT_INTEGRATION_POINTS',
    value: 'DEFAULT_MATHML_TEXT_INTEGRATION_POINTS',
    writes: [
      'MATHML_TEXT_INTEGRATION_POINTS = _resolveObjectOption(cfg, "MATHML_TEXT_INTEGRATION_POINTS", DEFAULT_MATHML_TEXT_INTEGRATION_POINTS)',
    ],
  },
  {
    name: 'HTML_INTEGRATION_POINTS',
    value: 'DEFAULT_HTML_INTEGRATION_POINTS',
    writes: [
      'HTML_INTEGRATION_POINTS = _resolveObjectOption(cfg, "HTML_INTEGRATION_POINTS", DEFAULT_HTML_INTEGRATION_POINTS)',
    ],
  },
  { name: 'SET_CONFIG', value: 'false', writes: [] },
  { name: 'SET_CONFIG_ALLOWED_TAGS', value: 'null', writes: [] },
  { name: 'SET_CONFIG_ALLOWED_ATTR', value: 'null', writes: [] },
];
