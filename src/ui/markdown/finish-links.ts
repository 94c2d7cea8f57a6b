import { checkLinkUrl } from './check-link-url.ts';

/**
 * Finishes the links and image placeholders of a sanitized fragment in place: a link whose
 * destination failed the check (no `href` left) becomes its plain content; a link or image
 * placeholder to another host gets a visible `<span class="ac-host">` badge with that host; an
 * image placeholder keeps its destination as `title` only when it passes the link check.
 */
export function finishLinks(fragment: DocumentFragment): void {
  for (const link of fragment.querySelectorAll('a')) {
    const href = link.getAttribute('href');
    const checked = href === null ? undefined : checkLinkUrl(href);
    if (!checked) link.replaceWith(...link.childNodes);
    else if (checked.host) link.after(createHostBadge(checked.host));
  }
  for (const image of fragment.querySelectorAll('span.ac-img[title]')) {
    const checked = checkLinkUrl(image.getAttribute('title') ?? '');
    if (!checked) {
      image.removeAttribute('title');
      continue;
    }
    image.setAttribute('title', checked.href);
    if (checked.host) image.append(createHostBadge(checked.host));
  }
}

function createHostBadge(host: string): HTMLSpanElement {
  const badge = document.createElement('span');
  badge.className = 'ac-host';
  badge.textContent = host;
  return badge;
}
