import { afterEach, describe, expect, it } from 'vitest';
import type { ToolReceipt, ToolReceiptStore } from '../core/index.ts';
import { openIndexedDbReceiptStore } from './indexeddb-receipt-store.ts';

const opened: ToolReceiptStore[] = [];
let counter = 0;
afterEach(() => {
  for (const store of opened.splice(0)) store.close?.();
});

/** A fresh database name per test (the browser keeps databases between tests of one run). */
function freshName(): string {
  counter += 1;
  return `agent-chat-tools:test-${Date.now()}-${counter}`;
}

function open(name: string): ToolReceiptStore {
  const store = openIndexedDbReceiptStore({ name });
  opened.push(store);
  return store;
}

const receipt = (toolCallId: string, patch: Partial<ToolReceipt> = {}): ToolReceipt => ({
  toolCallId,
  runId: 'run_1',
  name: 'cart.add',
  args: { sku: 'SKU-1', quantity: 2 },
  argsDigest: 'sha256:abc',
  state: 'claimed',
  sequence: 0,
  acceptedReceiptId: 'rcp_a',
  updatedAt: 1,
  ...patch,
});

describe('openIndexedDbReceiptStore', () => {
  it('creates a receipt once (a second create of the call is refused), then reads, replaces, lists and deletes it', async () => {
    const name = freshName();
    const store = open(name);
    expect(await store.create(receipt('tc_1'))).toBe(true);
    expect(await store.create(receipt('tc_1', { state: 'running' }))).toBe(false);
    expect(await store.get('tc_1')).toEqual(receipt('tc_1'));
    const final = { receiptId: 'rcp_f', sequence: 2, kind: 'completed' as const, result: { ok: true } };
    await store.put(receipt('tc_1', { state: 'final', sequence: 2, final }));
    await store.create(receipt('tc_2'));
    // Another tab's store on the same database sees the same receipts (and refuses the same create).
    const otherTab = open(name);
    expect((await otherTab.list()).map((stored) => [stored.toolCallId, stored.state])).toEqual([
      ['tc_1', 'final'],
      ['tc_2', 'claimed'],
    ]);
    expect(await otherTab.create(receipt('tc_2'))).toBe(false);
    await store.delete('tc_1');
    expect(await otherTab.get('tc_1')).toBeUndefined();
    expect(await store.get('missing')).toBeUndefined();
  });

  it('keeps one executor id per database, made by the first caller, and none is shared between databases', async () => {
    const name = freshName();
    const first = await open(name).executorId(() => 'exe_first');
    const again = await open(name).executorId(() => 'exe_second');
    const elsewhere = await open(freshName()).executorId(() => 'exe_third');
    expect([first, again, elsewhere]).toEqual(['exe_first', 'exe_first', 'exe_third']);
  });

  it('holds a Web Lock per name: a second holder gets null at once, and the lock frees when the task ends', async () => {
    const name = freshName();
    const store = open(name);
    const otherTab = open(name);
    let release: () => void = () => undefined;
    const held = store.withLock(
      'agent-chat-tool:tc_1',
      () => new Promise<string>((resolve) => (release = () => resolve('ran'))),
    );
    // Wait until the first request holds the lock.
    await expect
      .poll(async () => ((await navigator.locks.query()).held ?? []).map((lock) => lock.name))
      .toContain('agent-chat-tool:tc_1');
    expect(await otherTab.withLock('agent-chat-tool:tc_1', async () => 'second')).toBeNull();
    expect(await otherTab.withLock('agent-chat-tool:tc_2', async () => 'other call')).toEqual({ value: 'other call' });
    release();
    expect(await held).toEqual({ value: 'ran' });
    expect(await otherTab.withLock('agent-chat-tool:tc_1', async () => 'after')).toEqual({ value: 'after' });
  });
});
