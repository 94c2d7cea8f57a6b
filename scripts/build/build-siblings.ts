import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import type { SiblingFile, SiblingFiles, SiblingName } from '../../embed/siblings.ts';
import { buildIife } from './build-iife.ts';
import { describeFile } from './create-manifest.ts';
import { renameLitPolicy } from './rename-lit-policy.ts';

/** One sibling file: the part it carries, its entry and its name beside `agent-chat.js`. */
interface Sibling {
  name: SiblingName;
  entry: string;
  fileName: string;
  plugins?: Plugin[];
  /** Holds no Lit of its own (it renders with the widget's): the build fails if it creates a Trusted Types policy. */
  isLitFree?: boolean;
}

/**
 * The files `agent-chat.js` loads on first use (embed/siblings.ts): the launcher (plain DOM), the
 * conversations panel, whose own copy of Lit gets its own Trusted Types policy name, the tool
 * cards (tool calls and approvals), the declarative widgets, the turn actions (Copy, votes) and
 * the composer's extras (the attachment tray, the effort picker), which render with the widget's Lit (no copy, no policy), and
 * the code highlighter (highlight.js core, no DOM: it returns HTML that `agent-chat.js` sanitizes).
 */
export const SIBLINGS: readonly Sibling[] = [
  { name: 'launcher', entry: 'embed/launcher.ts', fileName: 'agent-chat.launcher.js' },
  {
    name: 'conversations',
    entry: 'embed/conversations.ts',
    fileName: 'agent-chat.conversations.js',
    plugins: [renameLitPolicy('agent-chat-conversations')],
  },
  { name: 'tool-cards', entry: 'embed/tool-cards.ts', fileName: 'agent-chat.tool-cards.js', isLitFree: true },
  { name: 'turn-actions', entry: 'embed/turn-actions.ts', fileName: 'agent-chat.turn-actions.js', isLitFree: true },
  {
    name: 'composer-extras',
    entry: 'embed/composer-extras.ts',
    fileName: 'agent-chat.composer-extras.js',
    isLitFree: true,
  },
  { name: 'highlight', entry: 'embed/highlight.ts', fileName: 'agent-chat.highlight.js' },
];

/**
 * Builds every sibling file into `outDir` and returns their names and SRI integrities, which the
 * build of `agent-chat.js` then carries (`siblings` of {@link buildIife}).
 */
export async function buildSiblings(options: { rootDir: string; outDir: string }): Promise<SiblingFiles> {
  const widgets = await buildSibling(options, WIDGETS_SIBLING);
  const files: Partial<SiblingFiles> = {};
  for (const sibling of SIBLINGS) {
    const plugins = sibling.name === 'tool-cards' ? [defineWidgetsFile(widgets)] : [];
    files[sibling.name] = await buildSibling(options, {
      ...sibling,
      plugins: [...(sibling.plugins ?? []), ...plugins],
    });
  }
  return files as SiblingFiles;
}

/**
 * The widgets' file (docs/widgets.md), which the tool cards load when a card first shows a widget:
 * built first, so the tool cards' file carries its name and integrity (`agent-chat.js` does not).
 */
const WIDGETS_SIBLING = { entry: 'embed/widgets.ts', fileName: 'agent-chat.widgets.js', isLitFree: true };

async function buildSibling(
  options: { rootDir: string; outDir: string },
  sibling: Omit<Sibling, 'name'>,
): Promise<SiblingFile> {
  await buildIife({ ...options, entry: sibling.entry, fileName: sibling.fileName, plugins: sibling.plugins ?? [] });
  const bytes = await readFile(join(options.outDir, sibling.fileName));
  if (sibling.isLitFree && bytes.includes('createPolicy')) {
    throw new Error(
      `${sibling.fileName} must hold no Lit (it renders with the widget's), yet it creates a Trusted Types policy`,
    );
  }
  return { fileName: sibling.fileName, integrity: describeFile(bytes).integrity };
}

/** Fills in `__AGENT_CHAT_WIDGETS_FILE__` of embed/tool-cards.ts with the widgets' file just built. */
function defineWidgetsFile(file: SiblingFile): Plugin {
  return {
    name: 'agent-chat:define-widgets-file',
    config: () => ({ define: { __AGENT_CHAT_WIDGETS_FILE__: JSON.stringify(file) } }),
  };
}
