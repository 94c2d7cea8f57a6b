import { css, html, nothing } from 'lit';
import { loadPartFile } from '../load-part-file.ts';
import { createSiblingPart } from '../sibling-part.ts';
import { renderVisibleText } from '../../ui/text/render-visible-text.ts';
import type { ComposerExtrasModule } from './composer-extras-global.ts';

/**
 * The composer's extras (the attachment tray, the effort picker), rendering with the widget's own
 * Lit: a dynamic import of `src/ui/composer-extras.ts` (a chunk of the ESM build), or in the script
 * tag's build its part file `agent-chat.composer-extras.js` (src/parts/load-part-file.ts).
 */
const composerExtras = createSiblingPart(
  __SCRIPT_TAG_BUILD__
    ? () => loadPartFile('composer-extras', () => window.AgentChatComposerExtras)
    : (): Promise<ComposerExtrasModule> => import('../../ui/composer-extras.ts'),
  ({ createComposerExtras }) => createComposerExtras({ html, nothing, css, renderVisibleText }),
);

export const findComposerExtras = composerExtras.find;
export const loadComposerExtras = composerExtras.load;
