import { describe, expect, it } from 'vitest';
import { linkSignals } from './link-signals.ts';

describe('linkSignals', () => {
  it('aborts with the reason of whichever signal aborts first', () => {
    const first = new AbortController();
    const second = new AbortController();
    const linked = linkSignals([first.signal, undefined, second.signal]);
    expect(linked.signal.aborted).toBe(false);
    second.abort('second');
    first.abort('first');
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe('second');
  });

  it('starts aborted when a signal already is', () => {
    const controller = new AbortController();
    controller.abort('early');
    const linked = linkSignals([new AbortController().signal, controller.signal]);
    expect(linked.signal.reason).toBe('early');
  });

  it('stops following after dispose', () => {
    const controller = new AbortController();
    const linked = linkSignals([controller.signal]);
    linked.dispose();
    controller.abort('late');
    expect(linked.signal.aborted).toBe(false);
  });

  it('never aborts with no signals', () => {
    expect(linkSignals([undefined]).signal.aborted).toBe(false);
  });
});
