import type { CreateLauncherOptions, Launcher } from '../../ui/launcher/create-launcher.ts';

/** What builds a launcher: `createLauncher`, wherever its code comes from. */
export type LauncherFactory = (options: CreateLauncherOptions) => Launcher;

/**
 * A launcher whose code is still on its way (the script tag's sibling file): returns at once a
 * {@link Launcher} whose `host` is the element the real launcher will be built in (so what is set
 * on it, like `dir`, stays), builds the real one when `factory` resolves, and forwards to it from
 * then on. Until then `open` and `close` are remembered (the last one wins; `isOpen()` is false
 * while nothing is shown) and `destroy` means the launcher is never built. A factory that fails to arrive is
 * reported (`reportError`); the widget then stays unshown.
 */
export function createDeferredLauncher(factory: Promise<LauncherFactory>, options: CreateLauncherOptions): Launcher {
  const host = options.container.ownerDocument.createElement('div');
  let real: Launcher | undefined;
  let pendingOpen: { focus?: boolean } | null = null;
  let isDestroyed = false;
  factory.then((createLauncher) => {
    if (isDestroyed) return;
    real = createLauncher({ ...options, host });
    if (pendingOpen) real.open(pendingOpen);
  }, reportError);
  return {
    host,
    isOpen: () => real?.isOpen() === true,
    open: (openOptions) => (real ? real.open(openOptions) : (pendingOpen = openOptions ?? {})),
    close: () => (real ? real.close() : (pendingOpen = null)),
    destroy() {
      isDestroyed = true;
      real?.destroy();
    },
  };
}
