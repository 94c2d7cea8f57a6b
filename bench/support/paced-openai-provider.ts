import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { completionChunk } from '../../src/server/models/test-support/fake-openai-server.ts';

/** One paced answer: `count` tokens `zq<firstIndex + i>`, one every `intervalMs`. */
export interface PacedAnswer {
  firstIndex: number;
  count: number;
  intervalMs: number;
}

/** A local Chat Completions server that streams stamped tokens at a set pace. */
export interface PacedOpenAiProvider {
  /** The base URL for `OPENAI_BASE_URL` (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  /** Sets what the next chat completion streams. */
  next(answer: PacedAnswer): void;
  /** Token index → epoch ms (`performance.timeOrigin + performance.now()`) at which it was written. */
  sentAt: Map<number, number>;
  close(): Promise<void>;
}

/** Tokens per paragraph: the answer is Markdown paragraphs of ordinary length, as a model writes them. */
const TOKENS_PER_PARAGRAPH = 40;

/**
 * Starts a fake OpenAI-compatible provider on 127.0.0.1 whose every `POST /v1/chat/completions`
 * streams the current {@link PacedAnswer} in the real wire format (`chat.completion.chunk` frames,
 * then `[DONE]`), one token per frame, each written on a timer and stamped in `sentAt`.
 */
export async function startPacedOpenAiProvider(): Promise<PacedOpenAiProvider> {
  let answer: PacedAnswer = { firstIndex: 0, count: 10, intervalMs: 50 };
  const sentAt = new Map<number, number>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions') {
        res.writeHead(404).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.socket?.setNoDelay(true);
      const { firstIndex, count, intervalMs } = answer;
      res.write(completionChunk({ role: 'assistant', content: '' }));
      let written = 0;
      const timer = setInterval(() => {
        if (written === count) {
          clearInterval(timer);
          res.end(`${completionChunk({}, 'stop')}data: [DONE]\n\n`);
          return;
        }
        const index = firstIndex + written;
        written += 1;
        const separator = written % TOKENS_PER_PARAGRAPH === 0 ? '\n\n' : ' ';
        sentAt.set(index, performance.timeOrigin + performance.now());
        res.write(completionChunk({ content: `zq${index}${separator}` }));
      }, intervalMs);
      res.on('close', () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    next: (next) => {
      answer = next;
    },
    sentAt,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
