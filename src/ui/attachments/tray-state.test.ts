import { describe, expect, it } from 'vitest';
import type { AttachmentRef, ContextRef } from '../../core/index.ts';
import {
  countFiles,
  isTrayBlocking,
  reduceTray,
  trayPayload,
  type TrayAction,
  type TrayFile,
  type TrayItem,
  type TrayReference,
} from './tray-state.ts';

const SHOT = { key: 'file:1', name: 'shot.png', size: 120, mediaType: 'image/png' };
const STORED: AttachmentRef = { attachmentId: 'att_1', name: 'shot.png', mediaType: 'image/png', size: 120 };
const RUNBOOK: ContextRef = { ref: 'doc-1', title: 'Runbook' };
const TICKET: ContextRef = { ref: 'ticket-7', title: 'Ticket 7' };

function file(status: TrayFile['status'], patch: Partial<TrayFile> = {}): TrayFile {
  return { ...SHOT, kind: 'file', status, progress: status === 'uploaded' ? 1 : null, ...patch };
}

function reference(ref: ContextRef): TrayReference {
  return { key: `ref:${ref.ref}`, kind: 'reference', reference: ref };
}

/** Applies `actions` in turn to an empty tray. */
function run(...actions: TrayAction[]): TrayItem[] {
  return actions.reduce<TrayItem[]>((items, action) => reduceTray(items, action), []);
}

describe('reduceTray', () => {
  it('starts a new file uploading with no progress known yet', () => {
    expect(run({ type: 'fileAdded', file: SHOT })).toEqual([file('uploading')]);
  });

  it('fails a refused file at once, keeping why', () => {
    const problem = { code: 'PAYLOAD_TOO_LARGE', limit: 100 };
    expect(run({ type: 'fileAdded', file: SHOT, problem })).toEqual([file('failed', { problem })]);
  });

  it.each<[string, TrayAction, Partial<TrayFile>]>([
    ['progress (kept in [0, 1])', { type: 'uploadProgressed', key: 'file:1', progress: 0.4 }, { progress: 0.4 }],
    ['progress past 1', { type: 'uploadProgressed', key: 'file:1', progress: 3 }, { progress: 1 }],
    ['progress below 0', { type: 'uploadProgressed', key: 'file:1', progress: -1 }, { progress: 0 }],
    [
      'the end of the upload',
      { type: 'uploadFinished', key: 'file:1', stored: { attachment: STORED } },
      { status: 'uploaded', progress: 1, stored: { attachment: STORED } },
    ],
    [
      'a failed upload',
      { type: 'uploadFailed', key: 'file:1', problem: { code: 'NETWORK_ERROR', reason: 'offline' } },
      { status: 'failed', progress: null, problem: { code: 'NETWORK_ERROR', reason: 'offline' } },
    ],
  ])('applies %s to the uploading file only', (_, action, patch) => {
    const other = { key: 'file:2', name: 'other.png', size: 5, mediaType: 'image/png' };
    const items = run({ type: 'fileAdded', file: SHOT }, { type: 'fileAdded', file: other }, action);
    expect(items).toEqual([file('uploading', patch), { ...other, kind: 'file', status: 'uploading', progress: null }]);
  });

  it.each<[string, TrayAction]>([
    ['progress', { type: 'uploadProgressed', key: 'file:1', progress: 0.5 }],
    ['a finish', { type: 'uploadFinished', key: 'file:1', stored: { attachment: STORED } }],
    ['a failure', { type: 'uploadFailed', key: 'file:1', problem: { code: 'NETWORK_ERROR' } }],
  ])('ignores %s of a file no longer uploading (failed, uploaded or removed)', (_, action) => {
    const refused = run({ type: 'fileAdded', file: SHOT, problem: { code: 'ATTACHMENT_TYPE_UNSUPPORTED' } });
    expect(reduceTray(refused, action)).toEqual(refused);
    const uploaded = run(
      { type: 'fileAdded', file: SHOT },
      { type: 'uploadFinished', key: 'file:1', stored: { attachment: STORED } },
    );
    expect(reduceTray(uploaded, action)).toEqual(uploaded);
    const removed = run({ type: 'fileAdded', file: SHOT }, { type: 'removed', key: 'file:1' });
    expect(removed).toEqual([]);
    expect(reduceTray(removed, action)).toEqual([]);
  });

  it('adds each picked reference once, by its ref, in order', () => {
    const items = run(
      { type: 'referencesPicked', references: [RUNBOOK, RUNBOOK] },
      { type: 'referencesPicked', references: [{ ref: 'doc-1', title: 'Runbook again' }, TICKET] },
    );
    expect(items).toEqual([reference(RUNBOOK), reference(TICKET)]);
  });

  it('removes only the chip named', () => {
    const items = run(
      { type: 'referencesPicked', references: [RUNBOOK] },
      { type: 'fileAdded', file: SHOT },
      { type: 'removed', key: 'ref:doc-1' },
    );
    expect(items).toEqual([file('uploading')]);
  });

  it('removes the chips a send carried, and keeps one added meanwhile for the next', () => {
    const items = run(
      { type: 'referencesPicked', references: [RUNBOOK] },
      { type: 'fileAdded', file: SHOT },
      { type: 'uploadFinished', key: 'file:1', stored: { attachment: STORED } },
      { type: 'fileAdded', file: { ...SHOT, key: 'file:2' } },
      { type: 'sent', keys: ['ref:doc-1', 'file:1'] },
    );
    expect(items).toEqual([{ ...file('uploading'), key: 'file:2' }]);
  });

  it('never changes the tray it was given', () => {
    const items = Object.freeze(run({ type: 'fileAdded', file: SHOT })) as readonly TrayItem[];
    const next = reduceTray(items, { type: 'uploadProgressed', key: 'file:1', progress: 0.5 });
    expect(items).toEqual([file('uploading')]);
    expect(next).not.toBe(items);
  });
});

describe('isTrayBlocking', () => {
  it.each<[string, TrayItem[], boolean]>([
    ['an empty tray', [], false],
    ['references only', [reference(RUNBOOK)], false],
    ['an uploaded file', [file('uploaded')], false],
    ['an uploading file', [file('uploaded', { key: 'file:0' }), file('uploading')], true],
    ['a failed file not removed', [reference(RUNBOOK), file('failed', { problem: { code: 'NETWORK_ERROR' } })], true],
  ])('%s → %s', (_, items, isBlocking) => {
    expect(isTrayBlocking(items)).toBe(isBlocking);
  });
});

describe('countFiles', () => {
  it.each<[string, TrayItem[], number]>([
    ['an empty tray', [], 0],
    ['references (not files)', [reference(RUNBOOK), reference(TICKET)], 0],
    [
      'uploading and uploaded files',
      [file('uploading', { key: 'file:1' }), file('uploaded', { key: 'file:2' }), reference(RUNBOOK)],
      2,
    ],
    [
      'failed files (they do not count)',
      [file('failed', { key: 'file:1', problem: { code: 'PAYLOAD_TOO_LARGE' } }), file('uploaded', { key: 'file:2' })],
      1,
    ],
  ])('%s → %i', (_, items, count) => {
    expect(countFiles(items)).toBe(count);
  });
});

describe('trayPayload', () => {
  const productFile = file('uploaded', { key: 'file:3', stored: { reference: { ref: 'blob-9', title: 'notes.md' } } });

  it.each<[string, TrayItem[], ReturnType<typeof trayPayload>]>([
    ['nothing for an empty tray', [], {}],
    [
      'server files as attachments',
      [file('uploaded', { stored: { attachment: STORED } })],
      { attachments: [{ attachmentId: 'att_1' }] },
    ],
    ['product files as contextRefs', [productFile], { contextRefs: [{ ref: 'blob-9', title: 'notes.md' }] }],
    ['references as contextRefs', [reference(RUNBOOK)], { contextRefs: [RUNBOOK] }],
    [
      'both lists, references and product files in tray order',
      [reference(RUNBOOK), file('uploaded', { stored: { attachment: STORED } }), productFile],
      { attachments: [{ attachmentId: 'att_1' }], contextRefs: [RUNBOOK, { ref: 'blob-9', title: 'notes.md' }] },
    ],
    [
      'nothing of files not uploaded',
      [file('uploading', { key: 'file:1' }), file('failed', { key: 'file:2', problem: { code: 'NETWORK_ERROR' } })],
      {},
    ],
  ])('%s', (_, items, payload) => {
    expect(trayPayload(items)).toStrictEqual(payload);
  });
});
