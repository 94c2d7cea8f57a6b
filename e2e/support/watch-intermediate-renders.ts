/**
 * Runs in the page (passed to `page.evaluate`, so it must stay self-contained): watches every
 * DOM change inside the Markdown of the widget in `#<containerId>` while it streams, and records
 * on `window.xssStreamViolations` any element outside the allow-list, `on*` or `style` attribute,
 * or URL attribute that is not http(s)/mailto: the corpus's STREAM_SAFE (every intermediate
 * render as safe as the final one).
 */
export function watchIntermediateRenders(containerId: string): void {
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
  const urlAttributes = new Set([
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
  ]);
  const target = window as unknown as { xssStreamViolations?: string[] };
  const violations = (target.xssStreamViolations ??= []);
  const check = (element: Element): void => {
    if (!element.parentElement?.closest('.markdown')) return;
    const name = element.localName;
    const isWrapper =
      name === 'div' &&
      element.parentElement.classList.contains('markdown') &&
      element.attributes.length === 1 &&
      (element.className === 'ac-done' || element.className === 'ac-tail');
    if (isWrapper) return;
    const isChrome = name === 'button' && element.classList.contains('ac-copy');
    if (!isChrome && !allowed.has(name)) violations.push(`${containerId}: <${name}>`);
    for (const attribute of element.attributes) {
      const attributeName = attribute.name.toLowerCase();
      if (attributeName.startsWith('on') || attributeName === 'style')
        violations.push(`${containerId}: ${name}[${attributeName}]`);
      if (urlAttributes.has(attributeName)) {
        let protocol = 'invalid';
        try {
          protocol = new URL(attribute.value, document.baseURI).protocol;
        } catch {
          // Recorded below as unsafe.
        }
        if (!(protocol === 'http:' || protocol === 'https:' || (attributeName === 'href' && protocol === 'mailto:'))) {
          violations.push(`${containerId}: ${name}[${attributeName}=${attribute.value.slice(0, 80)}]`);
        }
      }
    }
  };
  const root = document.querySelector(`#${containerId} agent-chat`)?.shadowRoot;
  if (!root) throw new Error(`no widget in #${containerId}`);
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes' && record.target instanceof Element) check(record.target);
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue;
        check(node);
        for (const descendant of node.querySelectorAll('*')) check(descendant);
      }
    }
  }).observe(root, { subtree: true, childList: true, attributes: true });
}
