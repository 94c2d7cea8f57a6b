import { createMount } from './mount.ts';
import { createLauncher } from './ui/launcher/create-launcher.ts';

/**
 * Mounts the chat widget into `target` (a CSS selector or an Element) with its own client; the
 * launcher is built in (`createMount` in `mount.ts` has the contract). The ESM entry's `mount`: the
 * script tag's lives in `embed/index.ts`, whose launcher is a file of its own.
 */
export const mount = createMount({ findLauncher: () => createLauncher });
