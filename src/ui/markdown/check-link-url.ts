import { stripInvisibleCharacters } from './invisible-characters.ts';

/** A link destination that passed the policy, ready to be written into an attribute. */
export interface CheckedLink {
  /** The value for `href`: normalised when absolute or external, the original when same-origin relative. */
  href: string;
  /** The destination host to show the user (punycode for IDN); '' for same-origin relative and mailto. */
  host: string;
  /** The destination as the user should read it in a tooltip. */
  title: string;
}

/** Fixed base for resolving relative links: `.invalid` never resolves (RFC 2606). */
const CHECK_BASE = 'https://agent-chat.invalid/';
const CHECK_HOST = 'agent-chat.invalid';
const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is rejected
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;
const CHARACTER_REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z][a-zA-Z0-9]{1,31}));/g;
const NAMED_REFERENCES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  colon: ':',
  sol: '/',
  period: '.',
  lpar: '(',
  rpar: ')',
  num: '#',
  quest: '?',
  equals: '=',
  percnt: '%',
  Tab: '\t',
  NewLine: '\n',
  nbsp: '\u00A0',
};

/**
 * Checks a model-supplied link destination with the URL parser: only `http:`, `https:`,
 * `mailto:`, relative references and `#fragment` pass; anything else (including
 * `javascript:`/`data:`/`vbscript:` however obfuscated, any control character, or a character
 * reference this check cannot decode) returns undefined and the caller renders plain text.
 * Character references are decoded (CommonMark), then bidi and invisible characters stripped.
 */
export function checkLinkUrl(rawHref: string): CheckedLink | undefined {
  const decoded = decodeCharacterReferences(rawHref);
  if (decoded === undefined) return undefined;
  if (CONTROL_CHARACTERS.test(decoded)) return undefined;
  const cleaned = stripInvisibleCharacters(decoded).trim();
  if (cleaned === '') return undefined;
  let url: URL;
  try {
    url = new URL(cleaned, CHECK_BASE);
  } catch {
    return undefined;
  }
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) return undefined;
  if (url.protocol === 'mailto:') return { href: url.href, host: '', title: url.href };
  const hasScheme = HAS_SCHEME.test(cleaned);
  // `https:foo` has a scheme but no host: it would resolve against the page, not our base.
  if (hasScheme && url.host === CHECK_HOST) return undefined;
  const isRelative = !hasScheme && url.host === CHECK_HOST;
  if (!isRelative) return { href: url.href, host: url.host, title: url.href };
  // A backslash is a path separator only for special schemes: normalise so the page's base
  // cannot read it differently from this check.
  const href = cleaned.includes('\\') ? url.pathname + url.search + url.hash : cleaned;
  return { href, host: '', title: href };
}

/** Decodes numeric and common named character references; undefined if an unknown name is left. */
function decodeCharacterReferences(text: string): string | undefined {
  if (!text.includes('&')) return text;
  let isUnknown = false;
  const decoded = text.replace(CHARACTER_REFERENCE, (reference, decimal?: string, hex?: string, name?: string) => {
    if (name !== undefined) {
      const value = NAMED_REFERENCES[name];
      if (value === undefined) isUnknown = true;
      return value ?? reference;
    }
    const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex ?? '', 16);
    const isValid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
    return isValid ? String.fromCodePoint(code) : '\uFFFD';
  });
  return isUnknown ? undefined : decoded;
}
