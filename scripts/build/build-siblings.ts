import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import type { SiblingFiles, SiblingName } from '../../embed/siblings.ts';
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
 * cards (tool calls and approvals) and the turn actions (Copy, votes), which render with the
 * widget's Lit (no copy, no policy), and
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
  { name: 'highlight', entry: 'embed/highlight.ts', fileName: 'agent-chat.highlight.js' },
];

/**
 * Builds every sibling file into `outDir` and returns their names and SRI integrities, which the
 * build of `agent-chat.js` then carries (`siblings` of {@link buildIife}).
 */
export async function buildSiblings(options: { rootDir: string; outDir: string }): Promise<SiblingFiles> {
  const files: Partial<SiblingFiles> = {};
  for (const sibling of SIBLINGS) {
    await buildIife({ ...options, entry: sibling.entry, fileName: sibling.fileName, plugins: sibling.plugins ?? [] });
    const bytes = await readFile(join(options.outDir, sibling.fileName));
    if (sibling.isLitFree && bytes.includes('createPolicy')) {
      throw new Error(
        `${sibling.fileName} must hold no Lit (it renders with the widget's), yet it creates a Trusted Types policy`,
      );
    }
    const { integrity } = describeFile(bytes);
    files[sibling.name] = { fileName: sibling.fileName, integrity };
  }
  return files as SiblingFiles;
}
