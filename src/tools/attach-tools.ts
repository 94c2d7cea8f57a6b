import type { AgentClientHandle, BrowserTool } from '../core/index.ts';
import { checkAttachToolsOptions } from './check-attach-tools-options.ts';
import { mountToolRunner } from './mount-tool-runner.ts';
import type { MountedToolRunner, MountToolRunnerOptions } from './mount-tool-runner.ts';
import { pickToolRunnerStrings } from './tool-runner-zh-cn.ts';

/** Options of {@link attachTools}: the page's tools and how they run. */
export interface AttachToolsOptions extends Omit<MountToolRunnerOptions, 'handlers' | 'strings'> {
  /** The tools this page runs for the agent, keyed by name (docs/embedding.md, "Browser tools"). */
  tools: Record<string, BrowserTool>;
  /** The language of what the cards say about the calls; default the widget's `locale`, else the browser's. */
  locale?: string;
}

/** What {@link attachTools} needs of a mounted widget (`AgentChat.mount`'s handle has it). */
export interface ToolsHost {
  client: AgentClientHandle;
  element?: { locale?: string | undefined };
}

/**
 * Runs the page's browser tools in a mounted widget (`AgentChat.mount(…)`'s handle): one runner
 * with its own receipt store per identity (see `mountToolRunner`), writing on the cards in the
 * widget's language (English or Simplified Chinese). Nothing runs unless this is called (`mount`
 * calls it for its `tools` option and stops it in `destroy()`); call `stop()` of the result before
 * the mount's `destroy()` otherwise. Throws a `TypeError` naming the option when `options` are
 * invalid (see `checkAttachToolsOptions`).
 */
export function attachTools(chat: ToolsHost, options: AttachToolsOptions): MountedToolRunner {
  checkAttachToolsOptions(options);
  return startTools(chat, options);
}

/** {@link attachTools} once its options are checked. */
function startTools(chat: ToolsHost, options: AttachToolsOptions): MountedToolRunner {
  const { tools, locale, ...runnerOptions } = options;
  const language = locale ?? chat.element?.locale ?? globalThis.navigator?.language;
  return mountToolRunner(chat.client, {
    ...runnerOptions,
    handlers: tools,
    strings: pickToolRunnerStrings(language),
  });
}

/** The browser tools options of `mount`: `tools`, and `toolRunner` for how they run. */
export interface MountToolsOptions {
  tools?: Record<string, BrowserTool>;
  toolRunner?: Omit<AttachToolsOptions, 'tools'>;
}

/**
 * Runs a mount's browser tools (`mount(…, { tools, toolRunner })`): `attachMountTools` below, or
 * one that loads it first and resolves once the runner is plugged into the client (the mount
 * bootstraps only then). Throws at once when the options are invalid.
 */
export type AttachMountTools = (
  chat: ToolsHost,
  options: MountToolsOptions,
) => MountedToolRunner | Promise<MountedToolRunner>;

/** {@link attachTools} with `mount`'s options (`{ ...toolRunner, tools }`, checked the same way): what `mount` calls. */
export function attachMountTools(chat: ToolsHost, { tools, toolRunner }: MountToolsOptions): MountedToolRunner {
  const options: unknown = { ...toolRunner, tools };
  checkAttachToolsOptions(options);
  return startTools(chat, options);
}
