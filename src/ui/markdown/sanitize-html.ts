import DOMPurify from 'dompurify';
import type { Config, DOMPurify as Purifier } from 'dompurify';
import { getTrustedTypesPolicy } from '../../trusted-types-policy.ts';
import { checkLinkUrl } from './check-link-url.ts';
import { removeHiddenCharacters, removeHiddenProseCharacters } from '../text/hidden-characters.ts';

/** The widget's element allow-list for model-derived DOM (the corpus ALLOWED_EL set). */
export const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'em',
  'del',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'span',
  'sup',
  'sub',
];

const ALLOWED_CLASS = /^(?:ac-[a-z-]+|language-[a-z0-9+#-]{1,32})$/;
/** The classes of highlighted code (highlight-code-block.ts), kept on `span` only. */
const HIGHLIGHT_CLASS = /^hljs-[a-z_-]{1,32}$/;
const SAFE_URI = /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

/** The widget's DOMPurify config: its own `ALLOWED_TAGS` and `ALLOWED_ATTR`, never `USE_PROFILES`. */
export const SANITIZE_CONFIG: Config &
  Required<Pick<Config, 'ALLOWED_TAGS' | 'ALLOWED_ATTR'>> & { RETURN_DOM_FRAGMENT: true; USE_PROFILES?: never } = {
  ALLOWED_TAGS,
  ALLOWED_ATTR: ['href', 'title', 'class', 'start'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  ALLOWED_URI_REGEXP: SAFE_URI,
  RETURN_DOM_FRAGMENT: true,
};

let purifier: Purifier | undefined;

/**
 * Sanitizes renderer HTML into an inert `DocumentFragment` (never a string, never live
 * innerHTML), enforcing the allow-list, `ac-`/`language-` classes only (and `hljs-` on `span`), checked links (the
 * destination as `title`, `target="_blank" rel="noopener noreferrer"`), and invisible-character
 * stripping in text. Links that fail the check lose `href`; `finishLinks` unwraps them.
 * Throws only if the browser refuses to parse (e.g. Trusted Types without our policy).
 */
export function sanitizeHtml(html: string): DocumentFragment {
  const trustedTypesPolicy = getTrustedTypesPolicy();
  return getPurifier().sanitize(
    html,
    trustedTypesPolicy ? { ...SANITIZE_CONFIG, TRUSTED_TYPES_POLICY: trustedTypesPolicy } : SANITIZE_CONFIG,
  );
}

function getPurifier(): Purifier {
  purifier ??= createWidgetPurifier(DOMPurify);
  return purifier;
}

/**
 * Creates a DOMPurify instance for this window from `factory` with the widget's hooks: invisible
 * characters stripped from text, only `ac-`/`language-` classes kept (and `hljs-` on `span`), links checked and opened in
 * a new tab. The widget passes DOMPurify itself.
 */
export function createWidgetPurifier(factory: typeof DOMPurify): Purifier {
  const instance = factory(window);
  instance.addHook('uponSanitizeElement', (node) => {
    if (node.nodeType !== Node.TEXT_NODE) return;
    const text = node as Text;
    const parent = text.parentElement;
    if (parent?.closest('code')) return;
    const cleaned = parent?.closest('a') ? removeHiddenCharacters(text.data) : removeHiddenProseCharacters(text.data);
    if (cleaned !== text.data) text.data = cleaned;
  });
  instance.addHook('uponSanitizeAttribute', (node, data) => {
    if (data.attrName === 'class') {
      const kept = data.attrValue
        .split(/\s+/)
        .filter((name) => ALLOWED_CLASS.test(name) || (node.nodeName === 'SPAN' && HIGHLIGHT_CLASS.test(name)));
      data.attrValue = kept.join(' ');
      data.keepAttr = kept.length > 0;
    } else if (data.attrName === 'href') {
      // The parser has decoded character references: this is the destination the browser would follow.
      const checked = checkLinkUrl(data.attrValue);
      data.keepAttr = checked !== undefined;
      if (checked) data.attrValue = checked.href;
    }
  });
  // `target` and `rel` are never let through; a link that kept its checked `href` gets both, and
  // the destination as its tooltip.
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const href = node.getAttribute('href');
    if (href === null) {
      node.removeAttribute('title');
      return;
    }
    node.setAttribute('title', href);
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  });
  return instance;
}
