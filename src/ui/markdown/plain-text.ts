import { removeHiddenProseCharacters } from '../text/hidden-characters.ts';
import { capText } from '../text/visible-text.ts';

/**
 * Escaped text is laid out in paragraphs of at most this many characters, so one unbreakable run
 * (20,000 combining marks on one letter, a line of backticks) costs bounded layout per paragraph.
 */
export const PLAIN_PARAGRAPH_LENGTH = 1_000;

/**
 * Appends `text` to `parent` as escaped text with hidden characters removed, in
 * `<p class="ac-plain">` paragraphs of at most `PLAIN_PARAGRAPH_LENGTH` characters: the last one
 * grows while it has room (never splitting a surrogate pair), then new ones follow.
 */
export function appendPlainText(parent: ParentNode, text: string): void {
  let rest = removeHiddenProseCharacters(text);
  while (rest !== '') {
    const last = parent.lastElementChild;
    const node = last?.className === 'ac-plain' && last.firstChild instanceof Text ? last.firstChild : undefined;
    const part = node ? capText(rest, PLAIN_PARAGRAPH_LENGTH - node.length).text : '';
    if (node && part !== '') {
      node.appendData(part);
      rest = rest.slice(part.length);
      continue;
    }
    const paragraph = document.createElement('p');
    paragraph.className = 'ac-plain';
    paragraph.append(document.createTextNode(''));
    parent.append(paragraph);
  }
}
