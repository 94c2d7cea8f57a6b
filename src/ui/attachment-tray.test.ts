import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import type { AttachmentRef, BootstrapResponse, ContextRef } from '../core/index.ts';
import type { AgentChatSendDetail } from './agent-chat/agent-chat-events.ts';
import { mountAgentChat, type MountedAgentChat } from './test-support/mount-agent-chat.ts';

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

const FILE_LIMITS = {
  maxAttachmentBytes: 1000,
  maxAttachmentsPerMessage: 2,
  attachmentTypes: ['image/png', 'text/csv', 'text/plain'],
};

/** A server that keeps files, with small limits. */
const BOOTSTRAP = {
  agent: { agentId: 'agt_1', versionId: 'agv_1', name: 'Acme Support' },
  models: [{ modelId: 'scripted', label: 'Scripted', default: true, available: true }],
  limits: { maxInputChars: 1000, ...FILE_LIMITS },
  capabilities: { inputs: { duringRun: false }, attachments: { supported: true } },
} as BootstrapResponse;

/** A server that keeps no files. */
const BOOTSTRAP_WITHOUT_FILES = {
  ...BOOTSTRAP,
  limits: { maxInputChars: 1000 },
  capabilities: { inputs: { duringRun: false } },
} as BootstrapResponse;

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
}

function bytes(count: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(count).fill(65);
}

function dataTransferOf(files: File[]): DataTransfer {
  const data = new DataTransfer();
  for (const file of files) data.items.add(file);
  return data;
}

/** Pastes `files` into `target` the way a browser does (a screenshot from the clipboard). */
function paste(target: Element, ...files: File[]): ClipboardEvent {
  const event = new ClipboardEvent('paste', {
    clipboardData: dataTransferOf(files),
    bubbles: true,
    cancelable: true,
    composed: true,
  });
  target.dispatchEvent(event);
  return event;
}

/** Drags `files` over `target` and drops them there; returns the dragover and the drop. */
function dragAndDrop(target: Element, ...files: File[]): [DragEvent, DragEvent] {
  const dataTransfer = dataTransferOf(files);
  const init = { dataTransfer, bubbles: true, cancelable: true, composed: true };
  const over = new DragEvent('dragover', init);
  target.dispatchEvent(over);
  const drop = new DragEvent('drop', init);
  target.dispatchEvent(drop);
  return [over, drop];
}

/** Stores each upload as `att_<name>`. */
function storeByName(file: Blob, name: string): Promise<AttachmentRef> {
  return Promise.resolve({ attachmentId: `att_${name}`, name, mediaType: file.type, size: file.size });
}

async function typeInto(textarea: HTMLTextAreaElement, text: string): Promise<void> {
  textarea.focus();
  await userEvent.keyboard(text);
}

/** The mounted widget's composer, seen as a person sees it. */
function composerOf({ root, client }: MountedAgentChat) {
  return {
    textarea: () => root.querySelector('textarea') as HTMLTextAreaElement,
    sendButton: () => root.querySelector('[part="send-button"]') as HTMLButtonElement,
    attachButton: () => root.querySelector<HTMLButtonElement>('[part="attach-button"]'),
    chips: () => Array.from(root.querySelectorAll<HTMLElement>('.file-chip')),
    chip: (name: string) =>
      Array.from(root.querySelectorAll<HTMLElement>('.file-chip')).find(
        (chip) => chip.querySelector('.file-name')?.textContent === name,
      ),
    /** Each chip as [name, status, code]. */
    chipStates: () =>
      Array.from(root.querySelectorAll<HTMLElement>('.file-chip')).map((chip) => [
        chip.querySelector('.file-name')?.textContent,
        chip.dataset.status,
        chip.dataset.code,
      ]),
    sends: () => client.calls.filter((call) => call.name === 'send'),
    uploads: () => client.calls.filter((call) => call.name === 'uploadAttachment'),
  };
}

describe('attachment tray, with a server that keeps files', () => {
  it('uploads a pasted screenshot with its progress, holds Send until it is stored, then sends it as an attachment', async () => {
    const mounted = await mountAgentChat();
    const { element, client, emit } = mounted;
    const ui = composerOf(mounted);
    await emit({ bootstrap: BOOTSTRAP });
    const sent: AgentChatSendDetail[] = [];
    element.addEventListener('agent-chat-send', (event) => sent.push(event.detail));
    const upload = deferred<AttachmentRef>();
    client.nextUpload = () => upload.promise;
    expect(ui.attachButton()?.getAttribute('aria-label')).toBe('Attach');

    await typeInto(ui.textarea(), 'What is wrong here?');
    const pasted = paste(ui.textarea(), new File([bytes(300)], 'shot.png', { type: 'image/png' }));
    await element.updateComplete;

    // The file goes to the tray, not into the text.
    expect(pasted.defaultPrevented).toBe(true);
    expect(ui.textarea().value).toBe('What is wrong here?');
    expect(ui.chipStates()).toEqual([['shot.png', 'uploading', undefined]]);
    const chip = ui.chip('shot.png') as HTMLElement;
    expect(chip.querySelector('progress')?.getAttribute('aria-label')).toBe('Uploading shot.png');
    expect(chip.querySelector('.attachment-remove')?.getAttribute('aria-label')).toBe('Cancel uploading shot.png');
    expect(ui.uploads()).toHaveLength(1);
    expect(ui.uploads()[0]).toMatchObject({ fileName: 'shot.png', file: { type: 'image/png', size: 300 } });

    // Send waits for the upload, by button and by Enter.
    expect(ui.sendButton().disabled).toBe(true);
    await userEvent.keyboard('{Enter}');
    await element.updateComplete;
    expect(ui.sends()).toEqual([]);

    upload.resolve({ attachmentId: 'att_9', name: 'shot.png', mediaType: 'image/png', size: 300 });
    await expect.poll(() => ui.chip('shot.png')?.dataset.status).toBe('uploaded');
    expect(ui.chip('shot.png')?.querySelector('progress')).toBe(null);
    expect(ui.chip('shot.png')?.querySelector('.attachment-remove')?.getAttribute('aria-label')).toBe(
      'Remove shot.png',
    );
    expect(ui.sendButton().disabled).toBe(false);

    await userEvent.keyboard('{Enter}');
    await expect
      .poll(() => ui.sends())
      .toEqual([{ name: 'send', text: 'What is wrong here?', options: { attachments: [{ attachmentId: 'att_9' }] } }]);
    expect(sent).toEqual([{ text: 'What is wrong here?', contextRefs: [], attachments: [{ attachmentId: 'att_9' }] }]);
    await expect.poll(() => ui.chips()).toEqual([]);
    expect(ui.textarea().value).toBe('');
  });

  it('takes a CSV dropped on the widget and uploads it as text/csv whatever the browser typed it', async () => {
    const mounted = await mountAgentChat();
    const { root, emit } = mounted;
    const ui = composerOf(mounted);
    await emit({ bootstrap: BOOTSTRAP });
    const content = root.querySelector('.content') as HTMLElement;
    // Windows types a CSV as Excel's.
    const [over, drop] = dragAndDrop(
      content,
      new File(['id,total\n1,20\n'], 'orders.csv', { type: 'application/vnd.ms-excel' }),
    );
    expect(over.defaultPrevented).toBe(true);
    expect(drop.defaultPrevented).toBe(true);
    expect(content.hasAttribute('data-drop-target')).toBe(false);
    await expect.poll(() => ui.chipStates()).toEqual([['orders.csv', 'uploaded', undefined]]);
    const [call] = ui.uploads();
    expect(call).toMatchObject({ name: 'uploadAttachment', fileName: 'orders.csv' });
    const file = (call as { file: Blob }).file;
    expect(file).toBeInstanceOf(File);
    expect([(file as File).name, file.type, await file.text()]).toEqual(['orders.csv', 'text/csv', 'id,total\n1,20\n']);
  });

  it('outlines the widget while files are dragged over it, until they leave it or are dropped', async () => {
    const mounted = await mountAgentChat();
    await mounted.emit({ bootstrap: BOOTSTRAP });
    const content = mounted.root.querySelector('.content') as HTMLElement;
    const drag = (type: string, relatedTarget: EventTarget | null = null) =>
      content.dispatchEvent(
        new DragEvent(type, {
          dataTransfer: dataTransferOf([new File(['a'], 'a.txt', { type: 'text/plain' })]),
          relatedTarget,
          bubbles: true,
          cancelable: true,
          composed: true,
        }),
      );
    drag('dragover');
    expect(content.hasAttribute('data-drop-target')).toBe(true);
    expect(getComputedStyle(content).outlineStyle).toBe('dashed');
    // Moving onto a child of the widget is still over it; leaving for the page is not.
    drag('dragleave', mounted.root.querySelector('textarea'));
    expect(content.hasAttribute('data-drop-target')).toBe(true);
    drag('dragleave', document.body);
    expect(content.hasAttribute('data-drop-target')).toBe(false);
    drag('dragover');
    expect(content.hasAttribute('data-drop-target')).toBe(true);
  });

  it('refuses a file too large, of a type not accepted or past the per-message count before any upload, and holds Send until each is removed', async () => {
    const mounted = await mountAgentChat();
    const { element, client, root, emit } = mounted;
    const ui = composerOf(mounted);
    await emit({ bootstrap: BOOTSTRAP });
    client.nextUpload = storeByName;
    await typeInto(ui.textarea(), 'Here are the files');
    dragAndDrop(
      root.querySelector('.content') as HTMLElement,
      new File([bytes(1001)], 'big.png', { type: 'image/png' }),
      new File([bytes(10)], 'paper.pdf', { type: 'application/pdf' }),
      new File(['a'], 'a.txt', { type: 'text/plain' }),
      new File(['b'], 'b.csv', { type: 'text/csv' }),
      new File(['c'], 'c.txt', { type: 'text/plain' }),
    );
    // The refused files do not count: the two after them are taken, the third is one too many.
    await expect
      .poll(() => ui.chipStates())
      .toEqual([
        ['big.png', 'failed', 'PAYLOAD_TOO_LARGE'],
        ['paper.pdf', 'failed', 'ATTACHMENT_TYPE_UNSUPPORTED'],
        ['a.txt', 'uploaded', undefined],
        ['b.csv', 'uploaded', undefined],
        ['c.txt', 'failed', 'VALIDATION_FAILED'],
      ]);
    expect(ui.uploads().map((call) => call.name === 'uploadAttachment' && call.fileName)).toEqual(['a.txt', 'b.csv']);
    const problemOf = (name: string) => ui.chip(name)?.querySelector('.file-problem');
    expect(problemOf('big.png')?.textContent).toBe('Larger than 1 kB');
    expect(problemOf('paper.pdf')?.textContent).toBe('Files of type application/pdf can’t be attached');
    expect(problemOf('c.txt')?.textContent).toBe('At most 2 files per message');
    expect(problemOf('c.txt')?.getAttribute('role')).toBe('alert');
    expect(problemOf('a.txt')).toBe(null);

    // Nothing goes silently without a file the person chose.
    expect(ui.sendButton().disabled).toBe(true);
    for (const [index, name] of ['big.png', 'paper.pdf'].entries()) {
      const remove = ui.chip(name)?.querySelector('.attachment-remove') as HTMLButtonElement;
      expect(remove.getAttribute('aria-label')).toBe(`Remove ${name}`);
      await userEvent.click(remove);
      await element.updateComplete;
      expect(ui.chips()).toHaveLength(4 - index);
      await expect.poll(() => root.activeElement).toBe(ui.textarea());
      expect(ui.sendButton().disabled).toBe(true);
    }
    await userEvent.click(ui.chip('c.txt')?.querySelector('.attachment-remove') as HTMLButtonElement);
    await element.updateComplete;
    await expect.poll(() => root.activeElement).toBe(ui.textarea());
    expect(ui.chipStates()).toEqual([
      ['a.txt', 'uploaded', undefined],
      ['b.csv', 'uploaded', undefined],
    ]);
    expect(ui.sendButton().disabled).toBe(false);
    expect(ui.uploads()).toHaveLength(2);
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => ui.sends()).toHaveLength(1);
    expect(ui.sends()[0]).toMatchObject({
      options: { attachments: [{ attachmentId: 'att_a.txt' }, { attachmentId: 'att_b.csv' }] },
    });
  });

  it('frees a place for another file when an uploaded one is removed', async () => {
    const mounted = await mountAgentChat();
    const { element, emit } = mounted;
    const ui = composerOf(mounted);
    await emit({ bootstrap: BOOTSTRAP });
    paste(
      ui.textarea(),
      new File(['a'], 'a.txt', { type: 'text/plain' }),
      new File(['b'], 'b.txt', { type: 'text/plain' }),
    );
    await expect.poll(() => ui.chips().map((chip) => chip.dataset.status)).toEqual(['uploaded', 'uploaded']);
    (ui.chip('a.txt')?.querySelector('.attachment-remove') as HTMLButtonElement).click();
    await element.updateComplete;
    paste(ui.textarea(), new File(['c'], 'c.txt', { type: 'text/plain' }));
    await expect
      .poll(() => ui.chipStates())
      .toEqual([
        ['b.txt', 'uploaded', undefined],
        ['c.txt', 'uploaded', undefined],
      ]);
  });

  it("shows the server's refusal of an upload on its chip and holds Send", async () => {
    const mounted = await mountAgentChat();
    const { element, client, emit } = mounted;
    const ui = composerOf(mounted);
    await emit({ bootstrap: BOOTSTRAP });
    await typeInto(ui.textarea(), 'See attached');
    client.nextUpload = () =>
      Promise.reject({ code: 'ATTACHMENT_TYPE_UNSUPPORTED', message: 'The bytes are not image/png.' });
    paste(ui.textarea(), new File([bytes(10)], 'fake.png', { type: 'image/png' }));
    await expect.poll(() => ui.chipStates()).toEqual([['fake.png', 'failed', 'ATTACHMENT_TYPE_UNSUPPORTED']]);
    expect(ui.chip('fake.png')?.querySelector('.file-problem')?.textContent).toBe(
      'Files of type image/png can’t be attached',
    );
    expect(ui.chip('fake.png')?.querySelector('progress')).toBe(null);
    expect(ui.sendButton().disabled).toBe(true);

    // A failure the tray has no words of its own for says the server's message.
    client.nextUpload = () => Promise.reject({ code: 'RATE_LIMITED', message: 'Too many uploads, wait a minute.' });
    (ui.chip('fake.png')?.querySelector('.attachment-remove') as HTMLButtonElement).click();
    await element.updateComplete;
    paste(ui.textarea(), new File(['x'], 'notes.txt', { type: 'text/plain' }));
    await expect.poll(() => ui.chipStates()).toEqual([['notes.txt', 'failed', 'RATE_LIMITED']]);
    expect(ui.chip('notes.txt')?.querySelector('.file-problem')?.textContent).toBe(
      'Not uploaded: Too many uploads, wait a minute.',
    );
    expect(ui.sendButton().disabled).toBe(true);
    expect(ui.sends()).toEqual([]);
  });

  it('cancels the upload of a chip removed while uploading', async () => {
    const mounted = await mountAgentChat();
    const { element, client, root, emit } = mounted;
    const ui = composerOf(mounted);
    await emit({ bootstrap: BOOTSTRAP });
    const upload = deferred<AttachmentRef>();
    client.nextUpload = () => upload.promise;
    await typeInto(ui.textarea(), 'Never mind the file');
    paste(ui.textarea(), new File([bytes(10)], 'shot.png', { type: 'image/png' }));
    await element.updateComplete;
    const [call] = ui.uploads();
    const signal = (call as { signal: AbortSignal | undefined }).signal as AbortSignal;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal.aborted).toBe(false);

    await userEvent.click(ui.chip('shot.png')?.querySelector('.attachment-remove') as HTMLButtonElement);
    await element.updateComplete;
    expect(signal.aborted).toBe(true);
    expect(ui.chips()).toEqual([]);
    await expect.poll(() => root.activeElement).toBe(ui.textarea());
    expect(ui.sendButton().disabled).toBe(false);

    // An upload that ends after all (or fails on the abort) does not bring its chip back.
    upload.resolve({ attachmentId: 'att_late', name: 'shot.png', mediaType: 'image/png', size: 10 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    await element.updateComplete;
    expect(ui.chips()).toEqual([]);
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => ui.sends()).toEqual([{ name: 'send', text: 'Never mind the file', options: {} }]);
  });

  it('keeps the uploaded file in the tray when the send fails, and sends it with the next try', async () => {
    const mounted = await mountAgentChat();
    const { element, client, emit } = mounted;
    const ui = composerOf(mounted);
    await emit({ bootstrap: BOOTSTRAP });
    client.nextUpload = storeByName;
    client.nextSend = () => Promise.reject(new Error('network'));
    await typeInto(ui.textarea(), 'Totals?');
    dragAndDrop(
      element.shadowRoot?.querySelector('.content') as HTMLElement,
      new File(['1,2'], 'sums.csv', { type: 'text/csv' }),
    );
    await expect.poll(() => ui.chipStates()).toEqual([['sums.csv', 'uploaded', undefined]]);
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => ui.sends()).toHaveLength(1);
    await element.updateComplete;
    await element.updateComplete;
    expect(ui.chipStates()).toEqual([['sums.csv', 'uploaded', undefined]]);
    expect(ui.textarea().value).toBe('Totals?');
    expect(ui.sendButton().disabled).toBe(false);

    client.nextSend = () => Promise.resolve({ runId: 'run-2' });
    await userEvent.click(ui.sendButton());
    await expect.poll(() => ui.sends()).toHaveLength(2);
    expect(ui.sends()[1]).toEqual({
      name: 'send',
      text: 'Totals?',
      options: { attachments: [{ attachmentId: 'att_sums.csv' }] },
    });
    await expect.poll(() => ui.chips()).toEqual([]);
  });

  it('keeps a file added while a send is in flight for the next message', async () => {
    const mounted = await mountAgentChat();
    const { client, emit } = mounted;
    const ui = composerOf(mounted);
    await emit({ bootstrap: BOOTSTRAP });
    client.nextUpload = storeByName;
    const send = deferred<{ runId: string }>();
    client.nextSend = () => send.promise;
    paste(ui.textarea(), new File(['a'], 'a.txt', { type: 'text/plain' }));
    await expect.poll(() => ui.chipStates()).toEqual([['a.txt', 'uploaded', undefined]]);
    await typeInto(ui.textarea(), 'First{Enter}');
    await expect.poll(() => ui.sends()).toHaveLength(1);
    paste(ui.textarea(), new File(['b'], 'b.txt', { type: 'text/plain' }));
    await expect
      .poll(() => ui.chipStates())
      .toEqual([
        ['a.txt', 'uploaded', undefined],
        ['b.txt', 'uploaded', undefined],
      ]);
    send.resolve({ runId: 'run-1' });
    await expect.poll(() => ui.chipStates()).toEqual([['b.txt', 'uploaded', undefined]]);
    expect(ui.sends()[0]).toMatchObject({ options: { attachments: [{ attachmentId: 'att_a.txt' }] } });
  });

  it('fails the chip of an upload that rejects without a reason, instead of leaving it uploading', async () => {
    const mounted = await mountAgentChat((chat) => {
      chat.uploadAttachment = () => Promise.reject(undefined);
    });
    const ui = composerOf(mounted);
    await mounted.emit({ bootstrap: BOOTSTRAP_WITHOUT_FILES });
    paste(ui.textarea(), new File(['a'], 'a.txt', { type: 'text/plain' }));
    await expect.poll(() => ui.chipStates()).toEqual([['a.txt', 'failed', 'NETWORK_ERROR']]);
  });

  it('offers the file picker from the attach button, limited to the accepted types', async () => {
    const mounted = await mountAgentChat();
    const { emit } = mounted;
    const ui = composerOf(mounted);
    await emit({ bootstrap: BOOTSTRAP });
    const pickers: HTMLInputElement[] = [];
    vi.spyOn(HTMLInputElement.prototype, 'click').mockImplementation(function (this: HTMLInputElement) {
      pickers.push(this);
    });
    ui.attachButton()?.click();
    expect(pickers.map((input) => [input.type, input.multiple, input.accept])).toEqual([
      ['file', true, 'image/png,text/csv,text/plain'],
    ]);
    const [picker] = pickers as [HTMLInputElement];
    picker.files = dataTransferOf([new File(['hello'], 'hello.txt', { type: 'text/plain' })]).files;
    picker.dispatchEvent(new Event('change'));
    await expect.poll(() => ui.chipStates()).toEqual([['hello.txt', 'uploaded', undefined]]);
  });
});

describe('attachment tray, switched by the widget’s options', () => {
  it('offers no files with attachments = false even when the server keeps them, and lets a pasted file through', async () => {
    const mounted = await mountAgentChat((chat) => {
      chat.attachments = false;
    });
    const { element, root, emit } = mounted;
    const ui = composerOf(mounted);
    await emit({ bootstrap: BOOTSTRAP });
    expect(ui.attachButton()).toBe(null);
    const pasted = paste(ui.textarea(), new File([bytes(10)], 'shot.png', { type: 'image/png' }));
    const [over, drop] = dragAndDrop(root.querySelector('.content') as HTMLElement, new File(['a'], 'a.txt'));
    await element.updateComplete;
    expect([pasted.defaultPrevented, over.defaultPrevented, drop.defaultPrevented]).toEqual([false, false, false]);
    expect(ui.chips()).toEqual([]);
    expect(ui.uploads()).toEqual([]);

    // The option applies at once.
    element.attachments = true;
    await element.updateComplete;
    expect(ui.attachButton()).not.toBe(null);
  });

  it('offers no attach button while the server keeps no files and the product neither uploads nor picks', async () => {
    const mounted = await mountAgentChat();
    const { emit } = mounted;
    const ui = composerOf(mounted);
    await emit({ bootstrap: BOOTSTRAP_WITHOUT_FILES });
    expect(ui.attachButton()).toBe(null);
    expect(paste(ui.textarea(), new File(['a'], 'a.txt', { type: 'text/plain' })).defaultPrevented).toBe(false);
  });

  it("uploads to the product's storage with uploadAttachment, showing its progress, and sends its reference as a contextRef", async () => {
    const uploads: { file: File; signal: AbortSignal; onProgress: (fraction: number) => void }[] = [];
    const stored = deferred<ContextRef>();
    const mounted = await mountAgentChat((chat) => {
      chat.uploadAttachment = (file, { signal, onProgress }) => {
        uploads.push({ file, signal, onProgress });
        return stored.promise;
      };
    });
    const { element, client, emit } = mounted;
    const ui = composerOf(mounted);
    await emit({ bootstrap: BOOTSTRAP_WITHOUT_FILES });
    const sent: AgentChatSendDetail[] = [];
    element.addEventListener('agent-chat-send', (event) => sent.push(event.detail));
    expect(ui.attachButton()).not.toBe(null);

    await typeInto(ui.textarea(), 'From my drive');
    paste(ui.textarea(), new File([bytes(4000)], 'scan.png', { type: 'image/png' }));
    await element.updateComplete;
    expect(uploads.map(({ file }) => [file.name, file.type, file.size])).toEqual([['scan.png', 'image/png', 4000]]);
    const progress = () => ui.chip('scan.png')?.querySelector('progress') as HTMLProgressElement;
    // Indeterminate until the product says how far it is.
    expect(progress().hasAttribute('value')).toBe(false);
    uploads[0]?.onProgress(0.25);
    await element.updateComplete;
    expect(progress().value).toBe(0.25);
    uploads[0]?.onProgress(0.75);
    await element.updateComplete;
    expect(progress().value).toBe(0.75);
    expect(ui.sendButton().disabled).toBe(true);

    stored.resolve({ ref: 'drive:123', title: 'scan.png' });
    await expect.poll(() => ui.chip('scan.png')?.dataset.status).toBe('uploaded');
    await userEvent.keyboard('{Enter}');
    await expect
      .poll(() => ui.sends())
      .toEqual([
        { name: 'send', text: 'From my drive', options: { contextRefs: [{ ref: 'drive:123', title: 'scan.png' }] } },
      ]);
    expect(sent).toEqual([
      { text: 'From my drive', contextRefs: [{ ref: 'drive:123', title: 'scan.png' }], attachments: [] },
    ]);
    // The server's own upload is never used.
    expect(client.calls.some((call) => call.name === 'uploadAttachment')).toBe(false);
    expect(uploads[0]?.signal.aborted).toBe(false);
  });
});
