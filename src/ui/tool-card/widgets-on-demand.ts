import type { CardTemplating } from '../card-templating.ts';
import type * as widgetsModule from '../widgets.ts';

/** What the widgets' file provides: `src/ui/widgets.ts` itself, or the script tag's sibling file. */
export type WidgetsModule = typeof widgetsModule;

// The ESM build's: a chunk of its own. The script tag's tool cards drop it (scripts/build/iife-plugins.ts) and their entry provides the sibling file.
let loadModule: (templating: CardTemplating) => Promise<WidgetsModule> = () => import('../widgets.ts');
let loading: Promise<void> | undefined;

/**
 * Makes `load` the way the tool cards get the widget renderer (docs/widgets.md): by default a
 * dynamic import of `src/ui/widgets.ts`; the script tag's tool cards file provides
 * `agent-chat.widgets.js`, whose integrity it carries (embed/tool-cards.ts).
 */
export function provideWidgets(load: (templating: CardTemplating) => Promise<WidgetsModule>): void {
  loadModule = load;
}

/**
 * Loads the widgets' file once and defines `<agent-chat-widget>` with `templating`. Rejects when
 * the file does not load (network, integrity, CSP); a later call tries again.
 */
export function loadWidgets(templating: CardTemplating): Promise<void> {
  loading ??= loadModule(templating).then(
    ({ defineWidgetElement }) => defineWidgetElement(templating),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
