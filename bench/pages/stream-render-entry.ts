import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { createStreamingMarkdown } from '../../src/ui/markdown/streaming-markdown.ts';
import { createContainer, timeSteps, type PageRunResult } from './measure-in-page.ts';

/** Options of one streamed message. */
export interface StreamOptions {
  text: string;
  deltaLength: number;
}

/** Ours also reports the cost of `finish()` and the renderer's counters. */
export interface OursResult extends PageRunResult {
  finishMs: number;
  blocksFinalized: number;
  tailRenders: number;
  charactersLexed: number;
}

/** Naive runs only at `indices` (delta numbers); their durations stand for the deltas around them. */
export interface NaiveOptions extends StreamOptions {
  indices: number[];
}

/** The page API the Node side drives with `page.evaluate`. */
export interface StreamRenderPage {
  runOurs(options: StreamOptions): Promise<OursResult>;
  runNaive(options: NaiveOptions): Promise<PageRunResult>;
}

declare global {
  var streamRenderPage: StreamRenderPage;
}

/** The end offset of every delta of `text`: 4, 8, … up to its length. */
function deltaEnds(options: StreamOptions): number[] {
  const ends: number[] = [];
  for (let end = options.deltaLength; end < options.text.length + options.deltaLength; end += options.deltaLength) {
    ends.push(Math.min(end, options.text.length));
  }
  return ends;
}

globalThis.streamRenderPage = {
  async runOurs(options) {
    const container = createContainer();
    // The widget's Markdown body drives the renderer exactly like this, once per animation frame.
    const renderer = createStreamingMarkdown(container);
    const result = await timeSteps(
      container,
      deltaEnds(options).map((end) => () => renderer.update(options.text.slice(0, end))),
    );
    const started = performance.now();
    renderer.finish();
    void container.offsetHeight;
    const finishMs = performance.now() - started;
    return { ...result, finishMs, ...renderer.stats };
  },
  async runNaive(options) {
    const container = createContainer();
    const ends = deltaEnds(options);
    return timeSteps(
      container,
      options.indices.map((index) => () => {
        const html = marked.parse(options.text.slice(0, ends[index]), { async: false });
        container.innerHTML = DOMPurify.sanitize(html);
      }),
    );
  },
};
