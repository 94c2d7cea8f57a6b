import type { Browser, CDPSession, Page } from 'playwright';

/** Base styles of a benchmark page: a chat-column width so layout work is realistic. */
const PAGE_STYLE =
  'body{margin:0;font:14px/1.5 system-ui,sans-serif;width:720px}' +
  'pre{overflow:auto;padding:8px;background:#f6f8fa}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}';

/** A page with a benchmark script loaded and a CDP session for main-thread metrics. */
export interface BenchPage {
  page: Page;
  /** Seconds the renderer main thread spent in tasks so far (CDP `Performance.getMetrics` TaskDuration). */
  readTaskSeconds(): Promise<number>;
  /** Used JS heap in bytes after a forced garbage collection (CDP `HeapProfiler.collectGarbage`). */
  readHeapBytes(): Promise<number>;
}

/** Opens a blank page in `browser`, adds the base style and runs `script` (an IIFE) in it. */
export async function openBenchPage(browser: Browser, script: string): Promise<BenchPage> {
  const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
  await page.setContent(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><style>${PAGE_STYLE}</style></head><body></body></html>`,
  );
  await page.addScriptTag({ content: script });
  const session: CDPSession = await page.context().newCDPSession(page);
  await session.send('Performance.enable');
  const readMetric = async (name: string): Promise<number> => {
    const { metrics } = await session.send('Performance.getMetrics');
    return metrics.find((metric) => metric.name === name)?.value ?? 0;
  };
  return {
    page,
    readTaskSeconds: () => readMetric('TaskDuration'),
    async readHeapBytes() {
      await session.send('HeapProfiler.collectGarbage');
      return readMetric('JSHeapUsedSize');
    },
  };
}
