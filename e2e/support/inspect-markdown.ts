/** Invariant code → what broke it (empty when the entry passed that invariant). */
export type InvariantFailures = Record<string, string[]>;

/**
 * Runs in the page (passed to `page.evaluate`, so it must stay self-contained): judges the last
 * assistant message of the widget in `#<containerId>` against the corpus invariants that a DOM
 * scan can decide (test/fixtures/README.md): ALLOWED_EL, NO_ON_ATTR, NO_STYLE, SAFE_URL,
 * LINK_SAFE, NO_CLOBBER, NO_REMOTE_IMG, IDEMPOTENT.
 */
export function inspectLastAnswer(containerId: string): InvariantFailures {
  const allowed = new Set([
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
  ]);
  const urlAttributes = [
    'href',
    'src',
    'srcset',
    'action',
    'formaction',
    'poster',
    'background',
    'cite',
    'data',
    'xlink:href',
    'ping',
    'longdesc',
    'lowsrc',
    'dynsrc',
    'srcdoc',
  ];
  const failures: Record<string, string[]> = {};
  const fail = (code: string, detail: string): void => {
    (failures[code] ??= []).push(detail.slice(0, 160));
  };
  const widget = document.querySelector(`#${containerId} agent-chat`);
  const messages = widget?.shadowRoot?.querySelectorAll('[part~="assistant-message"]') ?? [];
  const body = messages[messages.length - 1]?.querySelector('.markdown');
  if (!body) {
    fail('NO_CRASH', 'no rendered assistant Markdown');
    return failures;
  }
  for (const element of body.querySelectorAll('*')) {
    const name = element.localName;
    const isWrapper =
      name === 'div' &&
      element.parentElement === body &&
      element.attributes.length === 1 &&
      (element.className === 'ac-done' || element.className === 'ac-tail');
    if (isWrapper) continue;
    const isChrome =
      name === 'button' && element.classList.contains('ac-copy') && element.parentElement?.localName === 'pre';
    if (!isChrome && !allowed.has(name)) fail('ALLOWED_EL', `<${name}>`);
    if (name === 'img' || name === 'image' || name === 'source' || name === 'video') fail('NO_REMOTE_IMG', `<${name}>`);
    if (name === 'style' || name === 'link') fail('NO_STYLE', `<${name}>`);
    for (const attribute of element.attributes) {
      const attributeName = attribute.name.toLowerCase();
      if (attributeName.startsWith('on')) fail('NO_ON_ATTR', `${name}[${attributeName}]`);
      if (attributeName === 'style') fail('NO_STYLE', `${name}[style]`);
      if (attributeName === 'id' || attributeName === 'name')
        fail('NO_CLOBBER', `${name}[${attributeName}=${attribute.value}]`);
      if (urlAttributes.includes(attributeName)) {
        let protocol = 'invalid';
        try {
          protocol = new URL(attribute.value, document.baseURI).protocol;
        } catch {
          // An unparsable URL is a failure below.
        }
        const isSafe =
          protocol === 'http:' || protocol === 'https:' || (attributeName === 'href' && protocol === 'mailto:');
        if (!isSafe) fail('SAFE_URL', `${name}[${attributeName}=${attribute.value}]`);
      }
    }
    if (name === 'a' && element.hasAttribute('href')) {
      const rel = (element.getAttribute('rel') ?? '').split(/\s+/);
      if (element.getAttribute('target') !== '_blank' || !rel.includes('noopener') || !rel.includes('noreferrer')) {
        fail('LINK_SAFE', element.outerHTML);
      }
      if (element.hasAttribute('download') || element.hasAttribute('ping')) fail('LINK_SAFE', element.outerHTML);
    }
  }
  const box = body.getBoundingClientRect();
  const message = messages[messages.length - 1]!.getBoundingClientRect();
  for (const element of body.querySelectorAll('*')) {
    const position = getComputedStyle(element).position;
    if (position === 'fixed' || position === 'absolute') fail('NO_STYLE', `${element.localName} is ${position}`);
  }
  if (box.width > message.width + 1) fail('NO_STYLE', 'content wider than its message');
  const template = document.createElement('template');
  template.innerHTML = body.innerHTML;
  if (template.innerHTML !== body.innerHTML) fail('IDEMPOTENT', 'innerHTML changed after a re-parse');
  return failures;
}
