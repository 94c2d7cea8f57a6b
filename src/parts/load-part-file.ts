/**
 * How the script tag's build loads a part's file (docs/embedding.md, "Sibling files"): parts that
 * only some hosts use ship as files of their own beside `agent-chat.js`, which carries the sha384
 * of each from the same build and loads one on first use, from its own base URL, with that
 * integrity. The host adds one `<script>` tag; a page that never uses a part never fetches its file.
 */
import { allowScriptUrl, getTrustedTypesPolicy } from '../trusted-types-policy.ts';
import type { PartFile, PartName } from './part-table.ts';

/**
 * The `<script>` that is running this file, read while it runs (it is `null` once it is done).
 * Pure, so the ESM build, which never loads a part's file, drops it (and with it any `document`).
 */
const ownScript = /* @__PURE__ */ findCurrentScript();
const loads = /* @__PURE__ */ new Map<string, Promise<unknown>>();

function findCurrentScript(): HTMLScriptElement | null {
  return typeof document === 'undefined' ? null : (document.currentScript as HTMLScriptElement | null);
}

/**
 * Resolves with what `find` returns: at once when it returns something (a tag of the page loaded
 * the file already), else once the part's file has run. The file is loaded once: a `<script>` from
 * the directory `agent-chat.js` came from, with the integrity this build recorded
 * (`__AGENT_CHAT_PART_FILES__`), `crossorigin="anonymous"` and a Trusted Types script URL from the
 * `agent-chat` policy. Rejects with the file's URL when it does not load (network, integrity, CSP),
 * also when `agent-chat.js` did not come from a `<script src>`. A file given by its name and
 * integrity rather than by part is one another part's file carries (the tool cards carry the
 * widgets' file, src/parts/part-table.ts), so `agent-chat.js` does not.
 */
export function loadPartFile<Part>(part: PartName | PartFile, find: () => Part | undefined): Promise<Part> {
  const loaded = find();
  if (loaded !== undefined) return Promise.resolve(loaded);
  const { fileName, integrity } = typeof part === 'string' ? __AGENT_CHAT_PART_FILES__[part]! : part;
  let load = loads.get(fileName);
  if (load === undefined) {
    load = new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.onload = resolve;
      script.onerror = () => reject(new Error(`AgentChat: ${fileName} did not load`));
      const url = new URL(fileName, ownScript?.src).href;
      allowScriptUrl(url);
      script.integrity = integrity;
      script.crossOrigin = 'anonymous';
      // Under Trusted Types a string is refused; without them the policy is null and a string does.
      script.src = (getTrustedTypesPolicy()?.createScriptURL(url) ?? url) as string;
      document.head.append(script);
    });
    loads.set(fileName, load);
  }
  // The file is pinned by its integrity, so once it ran its part is there.
  return load.then(() => find() as Part);
}
