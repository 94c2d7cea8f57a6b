import { describe, expect, it } from 'vitest';
import { createDemoDraftFolders } from './demo-drafts.ts';

describe('createDemoDraftFolders', () => {
  it('gives each subject its own three drafts, and deleting one touches no other subject', () => {
    const folders = createDemoDraftFolders();
    expect(folders.list('alice').map((draft) => draft.draftId)).toEqual(['draft-42', 'draft-43', 'draft-44']);
    expect(folders.delete('alice', 'draft-42')).toBe(true);
    expect(folders.delete('alice', 'draft-42')).toBe(false);
    expect(folders.list('alice').map((draft) => draft.draftId)).toEqual(['draft-43', 'draft-44']);
    expect(folders.list('bob').map((draft) => draft.draftId)).toEqual(['draft-42', 'draft-43', 'draft-44']);
  });

  it('writes a new draft when the last one is deleted, so there is always one to delete', () => {
    const folders = createDemoDraftFolders();
    for (const draftId of ['draft-42', 'draft-43', 'draft-44']) expect(folders.delete('alice', draftId)).toBe(true);
    expect(folders.list('alice')).toEqual([{ draftId: 'draft-45', title: 'New draft' }]);
    expect(folders.delete('alice', 'draft-45')).toBe(true);
    expect(folders.list('alice')).toEqual([{ draftId: 'draft-46', title: 'New draft' }]);
  });

  it('keeps at most maxSubjects folders, forgetting the least recently used', () => {
    const folders = createDemoDraftFolders({ maxSubjects: 2 });
    folders.delete('alice', 'draft-42');
    folders.delete('bob', 'draft-42');
    folders.list('alice');
    folders.list('carol');
    expect(folders.list('alice').map((draft) => draft.draftId)).toEqual(['draft-43', 'draft-44']);
    // bob was the least recently used when carol came, so his folder starts over.
    expect(folders.list('bob').map((draft) => draft.draftId)).toEqual(['draft-42', 'draft-43', 'draft-44']);
  });
});
