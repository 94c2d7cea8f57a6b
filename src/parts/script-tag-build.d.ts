/**
 * The build constants of the widget's code (`define` of scripts/build/build-iife.ts and
 * scripts/build/build-esm.ts; `false` in the unit tests, vite.config.ts).
 */

/**
 * `true` in the script tag's builds (`agent-chat.js` and its part files), `false` in the ESM build:
 * a part's loader then loads the part's file beside `agent-chat.js` instead of importing its
 * module, and the import falls away with the dead branch (src/parts/part-table.ts).
 */
declare const __SCRIPT_TAG_BUILD__: boolean;

/**
 * The files of the parts a script-tag file loads (src/parts/part-table.ts, `carriedBy`), with their
 * integrity, as the build wrote them just before. Read only under {@link __SCRIPT_TAG_BUILD__}.
 */
declare const __AGENT_CHAT_PART_FILES__: Readonly<Record<string, { fileName: string; integrity: string }>>;
