import { css, html, nothing } from 'lit';
import { loadPartFile } from '../load-part-file.ts';
import { createSiblingPart } from '../sibling-part.ts';
import type * as composerExtrasModule from '../../ui/composer-extras.ts';
import { renderVisibleText } from '../../ui/text/render-visible-text.ts';
import type {} from './composer-extras-global.ts';

/** What the composer extras' file provides: `src/ui/composer-extras.ts` itself, or the script tag's part file. */
export type ComposerExtrasModule = typeof composerExtrasModule;

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
