/**
 * The script tag's sibling files (docs/embedding.md, "Sibling files"): parts that only some hosts
 * use ship as files of their own beside `agent-chat.js`, which carries the sha384 of each from the
 * same build and loads one on first use, from its own base URL, with that integrity. The host adds
 * one `<script>` tag; a page that never uses a part never fetches its file.
 */
import { allowScriptUrl, getTrustedTypesPolicy } from '../src/trusted-types-policy.ts';

/** The parts that ship as sibling files. */
export type SiblingName =
  'launcher' | 'conversations' | 'tool-cards' | 'turn-actions' | 'composer-extras' | 'highlight';

/** One sibling file of a build: its name beside `agent-chat.js` and its SRI integrity. */
export interface SiblingFile {
  fileName: string;
  integrity: string;
}

/** Every sibling file of a build, as `scripts/build.ts` hands them to `agent-chat.js`. */
export type SiblingFiles = Record<SiblingName, SiblingFile>;

/** Filled in by the build (`define` in scripts/build/build-iife.ts) with the files it just wrote. */
declare const __AGENT_CHAT_SIBLINGS__: SiblingFiles;

/** The `<script>` that is running this file, read while it runs (it is `null` once it is done). */
const ownScript = document.currentScript as HTMLScriptElement | null;
const loads = new Map<string, Promise<unknown>>();

/**
 * Resolves with what `find` returns: at once when it returns something (a tag of the page loaded
 * the file already), else once the sibling file has run. The file is loaded once: a
 * `<script>` from the directory `agent-chat.js` came from, with the integrity this build recorded,
 * `crossorigin="anonymous"` and a Trusted Types script URL from the `agent-chat` policy. Rejects with the file's URL when it does not load (network,
 * integrity, CSP), also when `agent-chat.js` did not come from a `<script src>`. A file named by
 * its name and integrity rather than by part is one another sibling carries (the tool cards carry
 * the widgets' file, scripts/build/build-siblings.ts), so `agent-chat.js` does not.
 */
export function loadSibling<Part>(sibling: SiblingName | SiblingFile, find: () => Part | undefined): Promise<Part> {
  const loaded = find();
  if (loaded !== undefined) return Promise.resolve(loaded);
  const { fileName, integrity } = typeof sibling === 'string' ? __AGENT_CHAT_SIBLINGS__[sibling] : sibling;
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
