import { PART_TABLE, partFileName } from '../../src/parts/part-table.ts';

/**
 * The script-tag files a static folder serves, as `npm run release:pack` copies them from `dist/`:
 * the IIFE, its locale packs, the files of its optional parts (src/parts/part-table.ts) and the browser tools runner. docs/release.md lists them; `release-files.test.ts` keeps it so.
 */
export const RELEASE_SCRIPT_FILES: readonly string[] = [
  'agent-chat.js',
  'agent-chat.zh-CN.js',
  // The optional parts' files (src/parts/part-table.ts).
  ...PART_TABLE.map(({ name }) => partFileName(name)),
  'agent-chat-tools.js',
];
