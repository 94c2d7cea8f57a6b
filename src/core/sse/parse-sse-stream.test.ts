import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSseParser, parseSseStream } from './parse-sse-stream.ts';
import type { SseFrame } from './parse-sse-stream.ts';

function readFixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
}

interface ParseResult {
  frames: SseFrame[];
  comments: string[];
}

function parseChunks(chunks: Array<Uint8Array | string>): ParseResult {
  const result: ParseResult = { frames: [], comments: [] };
  const parser = createSseParser({
    onFrame: (frame) => result.frames.push(frame),
    onComment: (text) => result.comments.push(text),
  });
  for (const chunk of chunks) parser.push(chunk);
  return result;
}

function byteByByte(bytes: Uint8Array): Uint8Array[] {
  return Array.from(bytes, (_, index) => bytes.subarray(index, index + 1));
}

/** Deterministic chunkings (mulberry32), so a failure names a reproducible seed. */
function randomChunks(bytes: Uint8Array, seed: number): Uint8Array[] {
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const chunks: Uint8Array[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const size = 1 + Math.floor(random() * 17);
    chunks.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return chunks;
}

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

function envelope(seq: number, type: string, data: unknown): Record<string, unknown> {
  return {
    v: 1,
    eventId: `evt_01J0000000000000000000000${seq}`,
    runId: 'run_01H',
    sessionId: 'ses_01G',
    seq,
    cursor: String(seq),
    type,
    timestamp: 1795966800120 + seq,
    data,
  };
}

const FIXTURES: Array<{ name: string; expected: ParseResult; json?: Array<Record<string, unknown>> }> = [
  {
    name: 'protocol-run.sse',
    expected: {
      frames: [1, 2, 3, 4, 5].map((seq) => ({
        event: 'message',
        data: expect.any(String) as unknown as string,
        lastEventId: String(seq),
        id: String(seq),
        retry: 3000,
      })),
      comments: ['open', 'hb 1795966815000'],
    },
    json: [
      envelope(1, 'RUN_STARTED', {
        protocolVersion: '1.0',
        agent: { agentId: 'agt_12', versionId: 'agv_34' },
        input: { messageId: 'msg_u1', content: [{ type: 'text', text: '你好, world 👋' }] },
      }),
      envelope(2, 'TEXT_MESSAGE_START', { messageId: 'msg_a1', role: 'assistant' }),
      envelope(3, 'TEXT_MESSAGE_CONTENT', { messageId: 'msg_a1', delta: 'Grüße — 中文 🚀' }),
      envelope(4, 'TEXT_MESSAGE_END', { messageId: 'msg_a1', finishReason: 'stop' }),
      envelope(5, 'RUN_FINISHED', { outcome: { type: 'success' } }),
    ],
  },
  {
    name: 'line-endings.sse',
    expected: {
      frames: [
        { event: 'message', data: 'crlf one\ncrlf two', lastEventId: 'a', id: 'a' },
        { event: 'message', data: 'cr only', lastEventId: 'b', id: 'b' },
        { event: 'mixed', data: 'lf\ncr\ncrlf', lastEventId: 'b' },
      ],
      comments: ['comment with crlf'],
    },
  },
  {
    name: 'fields.sse',
    expected: {
      frames: [
        { event: 'message', data: 'no space', lastEventId: '' },
        { event: 'message', data: ' two spaces', lastEventId: '' },
        { event: 'update', data: 'first\n\nthird', lastEventId: '' },
        { event: 'message', data: '', lastEventId: '' },
        { event: 'message', data: 'empty event name', lastEventId: '' },
        { event: 'message', data: 'kept', lastEventId: '' },
        { event: 'message', data: 'colon: inside: value', lastEventId: '' },
      ],
      comments: [],
    },
  },
  {
    name: 'ids-and-retry.sse',
    expected: {
      frames: [
        { event: 'message', data: 'after id-only block', lastEventId: '7', retry: 1500 },
        { event: 'message', data: 'nul id ignored', lastEventId: '7', retry: 1500 },
        { event: 'message', data: 'bad retries ignored', lastEventId: '7', retry: 1500 },
        { event: 'message', data: 'id reset to empty', lastEventId: '', id: '', retry: 1500 },
        { event: 'message', data: 'last complete', lastEventId: '9', id: '9', retry: 250 },
      ],
      comments: [],
    },
  },
];

describe('createSseParser on recorded fixtures', () => {
  for (const fixture of FIXTURES) {
    const bytes = readFixture(fixture.name);
    const chunkings: Array<[string, Array<Uint8Array | string>]> = [
      ['whole', [bytes]],
      ['byte by byte', byteByByte(bytes)],
      ...[1, 2, 3, 42, 1234].map((seed): [string, Uint8Array[]] => [
        `random chunks seed ${seed}`,
        randomChunks(bytes, seed),
      ]),
      ['as one decoded string', [new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)]],
    ];
    for (const [label, chunks] of chunkings) {
      it(`${fixture.name}: ${label}`, () => {
        const result = parseChunks(chunks);
        expect(result).toStrictEqual(fixture.expected);
        if (fixture.json) expect(result.frames.map((frame) => JSON.parse(frame.data))).toStrictEqual(fixture.json);
      });
    }
  }
});

describe('createSseParser rules', () => {
  it('treats a CR ending one chunk and an LF starting the next as one line end', () => {
    // Were the LF a second line end, it would be a blank line dispatching `a` on its own.
    expect(parseChunks(['data: a\r', '\ndata: b\r', '\n\r', '\n']).frames).toStrictEqual([
      { event: 'message', data: 'a\nb', lastEventId: '' },
    ]);
  });

  it('treats CR CR as two line ends (dispatch), even across chunks', () => {
    expect(parseChunks(['data: a\r', '\r']).frames).toStrictEqual([{ event: 'message', data: 'a', lastEventId: '' }]);
  });

  it('strips a leading BOM only once', () => {
    const bom = '\uFEFF';
    // A later U+FEFF is part of the field name, so `\uFEFFdata` is an unknown field.
    expect(parseChunks([`${bom}data: a\n\n`, `${bom}data: b\n\n`]).frames).toStrictEqual([
      { event: 'message', data: 'a', lastEventId: '' },
    ]);
    expect(parseChunks([`${bom}${bom}data: x\n\n`]).frames).toStrictEqual([]);
  });

  it('strips a BOM split across byte chunks', () => {
    const chunks = [new Uint8Array([0xef]), new Uint8Array([0xbb, 0xbf]), new TextEncoder().encode('data: z\n\n')];
    expect(parseChunks(chunks).frames).toStrictEqual([{ event: 'message', data: 'z', lastEventId: '' }]);
  });

  it('decodes a four-byte character split over every boundary', () => {
    const bytes = new TextEncoder().encode('data: 🚀\n\n');
    for (let cut = 1; cut < bytes.length; cut += 1) {
      expect(parseChunks([bytes.subarray(0, cut), bytes.subarray(cut)]).frames).toStrictEqual([
        { event: 'message', data: '🚀', lastEventId: '' },
      ]);
    }
  });

  it('replaces invalid UTF-8 with U+FFFD', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('data: a'), 0xff, 0x0a, 0x0a]);
    expect(parseChunks([bytes]).frames).toStrictEqual([{ event: 'message', data: 'a\uFFFD', lastEventId: '' }]);
  });

  it('discards an unterminated last line and a truncated multi-byte sequence at end', () => {
    expect(parseChunks(['data: a\n\ndata: b']).frames).toStrictEqual([
      { event: 'message', data: 'a', lastEventId: '' },
    ]);
    expect(parseChunks(['data: a\n']).frames).toStrictEqual([]);
    expect(parseChunks([new Uint8Array([0x64, 0x61, 0x74, 0x61, 0x3a, 0xf0, 0x9f])]).frames).toStrictEqual([]);
  });

  it('keeps the last event id across frames and sets retry only from digit strings', () => {
    const result = parseChunks(['id: 1\ndata: a\n\ndata: b\n\nretry: 0\ndata: c\n\n']);
    expect(result.frames).toStrictEqual([
      { event: 'message', data: 'a', lastEventId: '1', id: '1' },
      { event: 'message', data: 'b', lastEventId: '1' },
      { event: 'message', data: 'c', lastEventId: '1', retry: 0 },
    ]);
  });
});

describe('parseSseStream', () => {
  it('yields the frames of a chunked body and reports comments', async () => {
    const bytes = readFixture('protocol-run.sse');
    const comments: string[] = [];
    const frames: SseFrame[] = [];
    for await (const frame of parseSseStream(streamOf(randomChunks(bytes, 7)), {
      onComment: (text) => comments.push(text),
    })) {
      frames.push(frame);
    }
    expect(frames.map((frame) => frame.lastEventId)).toStrictEqual(['1', '2', '3', '4', '5']);
    expect(comments).toStrictEqual(['open', 'hb 1795966815000']);
  });

  it('rejects with the signal reason when aborted mid-stream and cancels the body', async () => {
    let cancelReason: unknown = 'not cancelled';
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(streamController) {
        controller = streamController;
        controller.enqueue(new TextEncoder().encode('data: one\n\n'));
      },
      cancel(reason) {
        cancelReason = reason;
      },
    });
    const abortController = new AbortController();
    const reason = new Error('watchdog');
    const seen: string[] = [];
    const run = (async () => {
      for await (const frame of parseSseStream(body, { signal: abortController.signal })) {
        seen.push(frame.data);
        abortController.abort(reason);
      }
    })();
    await expect(run).rejects.toBe(reason);
    expect(seen).toStrictEqual(['one']);
    expect(cancelReason).toBe(reason);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const abortController = new AbortController();
    abortController.abort(new Error('gone'));
    const iterator = parseSseStream(streamOf([]), { signal: abortController.signal });
    await expect(iterator.next()).rejects.toThrow('gone');
  });

  it('cancels the body when the consumer stops early', async () => {
    let isCancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: a\n\ndata: b\n\n'));
      },
      cancel() {
        isCancelled = true;
      },
    });
    for await (const frame of parseSseStream(body)) {
      expect(frame.data).toBe('a');
      break;
    }
    expect(isCancelled).toBe(true);
  });

  it('propagates a body error', async () => {
    const failure = new TypeError('terminated');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: a\n\n'));
        controller.error(failure);
      },
    });
    const seen: string[] = [];
    const run = (async () => {
      for await (const frame of parseSseStream(body)) seen.push(frame.data);
    })();
    await expect(run).rejects.toBe(failure);
    expect(seen).toStrictEqual([]);
  });
});
