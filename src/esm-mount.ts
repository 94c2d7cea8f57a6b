import { createMount } from './mount.ts';
import type { AttachMountTools } from './tools/attach-tools.ts';
import { checkAttachToolsOptions } from './tools/check-attach-tools-options.ts';
import type { MountedToolRunner } from './tools/mount-tool-runner.ts';
import { createLauncher } from './ui/launcher/create-launcher.ts';

/** The stand-in of a runner whose module failed to load: the chat runs without its tools. */
const NO_RUNNER: MountedToolRunner = { runner: () => null, stop: () => Promise.resolve() };

/**
 * `attachTools` of `agent-chat/tools`, imported on first use, so a bundle whose mounts have no
 * `tools` never loads the runner. The options are checked at once (`mount` throws on a mistake);
 * a failed import is reported (`reportError`) and the chat runs without the tools.
 */
const attachToolsOnDemand: AttachMountTools = (chat, options) => {
  checkAttachToolsOptions({ ...options.toolRunner, tools: options.tools });
  return import('./tools/index.ts').then(
    ({ attachMountTools }) => attachMountTools(chat, options),
    (error: unknown) => {
      globalThis.reportError(error);
      return NO_RUNNER;
    },
  );
};

/**
 * Mounts the chat widget into `target` (a CSS selector or an Element) with its own client; the
 * launcher is built in and the browser tools load when a mount has `tools` (`createMount` in
 * `mount.ts` has the contract). The ESM entry's `mount`: the script tag's lives in
 * `embed/index.ts`, whose launcher and tools are files of their own.
 */
export const mount = createMount({ createLauncher, findTools: () => attachToolsOnDemand });
