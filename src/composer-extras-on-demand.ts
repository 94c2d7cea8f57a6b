import { css, html, nothing } from 'lit';
import { createSiblingPart } from './sibling-part.ts';
import type * as composerExtrasModule from './ui/composer-extras.ts';
import { renderVisibleText } from './ui/text/render-visible-text.ts';

/** What the composer extras' file provides: `src/ui/composer-extras.ts` itself, or the script tag's sibling file. */
export type ComposerExtrasModule = typeof composerExtrasModule;

/**
 * The composer's extras (the attachment tray, the effort picker), rendering with the widget's own
 * Lit: by default a dynamic import of `src/ui/composer-extras.ts` (a chunk of the ESM build); the
 * script tag's entry provides its sibling file `agent-chat.composer-extras.js` (embed/siblings.ts),
 * and its build drops the import (scripts/build/iife-plugins.ts).
 */
const composerExtras = createSiblingPart(
  (): Promise<ComposerExtrasModule> => import('./ui/composer-extras.ts'),
  ({ createComposerExtras }) => createComposerExtras({ html, nothing, css, renderVisibleText }),
);

export const provideComposerExtras = composerExtras.provide;
export const findComposerExtras = composerExtras.find;
export const loadComposerExtras = composerExtras.load;
