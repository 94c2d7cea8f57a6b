import { removeHiddenCharacters } from '../text/hidden-characters.ts';

/** A link destination that passed the policy, ready to be written into `href` (and shown as its `title`). */
export interface CheckedLink {
  /** The value for `href`: normalised when absolute or external, the original when document-relative. */
  href: string;
  /** The destination host to show the user (punycode for IDN); '' for same-origin relative and mailto. */
  host: string;
}

/** Fixed base for resolving relative links: `.invalid` never resolves (RFC 2606). */
const CHECK_BASE = 'https://agent-chat.invalid/';
const CHECK_HOST = 'agent-chat.invalid';
const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029]/u;

/**
 * Percent-encodes a Markdown link destination as marked does before writing it into `href`
 * (`encodeURI`, existing `%XX` escapes kept), after removing bidi and invisible characters;
 * character references stay for the HTML parser to decode. Undefined when it cannot be encoded
 * (a lone surrogate), and the caller renders plain text.
 */
export function encodeLinkDestination(destination: string): string | undefined {
  try {
    return encodeURI(removeHiddenCharacters(destination)).replace(/%25/g, '%');
  } catch {
    return undefined;
  }
}

/**
 * Checks a link destination as the HTML parser hands it over (character references decoded)
 * with the URL parser: only `http:`, `https:`, `mailto:`, relative references (also empty) and
 * `#fragment` pass; anything else (`javascript:`/`data:`/`vbscript:` however obfuscated, any
 * control character) returns undefined and the link renders as plain text. Bidi and invisible
 * characters are stripped; a document-relative reference stays relative to the host page.
 */
export function checkLinkUrl(destination: string): CheckedLink | undefined {
  if (CONTROL_CHARACTERS.test(destination)) return undefined;
  const cleaned = removeHiddenCharacters(destination).trim();
  let url: URL;
  try {
    url = new URL(cleaned, CHECK_BASE);
  } catch {
    return undefined;
  }
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) return undefined;
  if (url.protocol === 'mailto:') return { href: url.href, host: '' };
  const hasScheme = HAS_SCHEME.test(cleaned);
  // `https:foo` has a scheme but no host: it would resolve against the page, not our base.
  if (hasScheme && url.host === CHECK_HOST) return undefined;
  const isRelative = !hasScheme && url.host === CHECK_HOST;
  if (!isRelative) return { href: url.href, host: url.host };
  // A backslash is a path separator only for special schemes: encode it (as CommonMark does) so
  // the page's base cannot read the reference differently from this check.
  return { href: cleaned.replace(/\\/g, '%5C'), host: '' };
}
