import { rememberRecent } from './remember-recent.ts';

/** One email draft of a demo user. */
export interface DemoDraft {
  draftId: string;
  title: string;
}

/** Every demo user's drafts folder; each subject sees and changes only its own. */
export interface DemoDraftFolders {
  /** The subject's drafts, oldest first (a new subject starts with a few). */
  list(subjectId: string): DemoDraft[];
  /** Deletes one of the subject's drafts; false when the subject has no draft of that id. */
  delete(subjectId: string, draftId: string): boolean;
}

/** Options of {@link createDemoDraftFolders}. */
export interface DemoDraftFoldersOptions {
  /** How many subjects' folders are kept; past it the least recently used is forgotten (default 10 000). */
  maxSubjects?: number;
}

const SEED_TITLES = ['Quarterly report (unfinished)', 'Re: lunch on Friday', 'Out of office'];
/** The first seeded draft's number: `draft-42`, `draft-43`, … */
const FIRST_DRAFT_NUMBER = 42;

/**
 * Creates the in-memory drafts folders of the demo tools. Each subject starts with three drafts
 * (`draft-42` first); deleting the last one writes a new draft (the next number), so the demo's
 * `/approval` always finds one to delete. Memory is bounded by `maxSubjects`.
 */
export function createDemoDraftFolders(options: DemoDraftFoldersOptions = {}): DemoDraftFolders {
  const maxSubjects = options.maxSubjects ?? 10_000;
  const folders = new Map<string, { drafts: DemoDraft[]; nextNumber: number }>();

  function folderOf(subjectId: string): { drafts: DemoDraft[]; nextNumber: number } {
    let folder = folders.get(subjectId);
    if (folder === undefined) {
      const drafts = SEED_TITLES.map((title, index) => ({ draftId: `draft-${FIRST_DRAFT_NUMBER + index}`, title }));
      folder = { drafts, nextNumber: FIRST_DRAFT_NUMBER + drafts.length };
    }
    return rememberRecent(folders, subjectId, folder, maxSubjects);
  }

  return {
    list: (subjectId) => folderOf(subjectId).drafts.slice(),
    delete(subjectId, draftId) {
      const folder = folderOf(subjectId);
      const index = folder.drafts.findIndex((draft) => draft.draftId === draftId);
      if (index < 0) return false;
      folder.drafts.splice(index, 1);
      if (folder.drafts.length === 0) {
        folder.drafts.push({ draftId: `draft-${folder.nextNumber}`, title: 'New draft' });
        folder.nextNumber += 1;
      }
      return true;
    },
  };
}
