import type { ToolDefinition } from './tool-registry.ts';
import { rememberRecent } from './remember-recent.ts';
import { propose } from './tool-outcomes.ts';

/** One demo user's profile. */
export interface DemoProfile {
  displayName: string;
  bio: string;
}

/** Every demo user's profile; each subject sees and changes only its own. */
export interface DemoProfiles {
  /** The subject's profile (a new subject starts with the demo one). */
  read(subjectId: string): DemoProfile;
  /** Replaces the subject's profile. */
  write(subjectId: string, profile: DemoProfile): void;
}

/** The profile every demo user starts with. */
export const DEMO_PROFILE: Readonly<DemoProfile> = {
  displayName: 'Demo user',
  bio: 'Coffee drinker.\nWrites about agents.',
};

/** Creates the in-memory demo profiles, at most `maxSubjects` (default 10 000; past it the least recently used is forgotten). */
export function createDemoProfiles(options: { maxSubjects?: number } = {}): DemoProfiles {
  const maxSubjects = options.maxSubjects ?? 10_000;
  const profiles = new Map<string, DemoProfile>();
  const remember = (subjectId: string, profile: DemoProfile): DemoProfile =>
    rememberRecent(profiles, subjectId, profile, maxSubjects);
  return {
    read: (subjectId) => ({ ...remember(subjectId, profiles.get(subjectId) ?? { ...DEMO_PROFILE }) }),
    write: (subjectId, profile) => void remember(subjectId, { ...profile }),
  };
}

const PROFILE_PARAMETERS = {
  type: 'object',
  properties: {
    displayName: { type: 'string', minLength: 1, maxLength: 80 },
    bio: { type: 'string', maxLength: 2000 },
  },
  required: ['displayName', 'bio'],
  additionalProperties: false,
};

/**
 * The demo's proposal pair: `profile.propose` (`allow`, changes nothing) previews a new display
 * name (a field, when it changes) and bio (a text diff) and proposes `profile.update`, which writes them and runs
 * only when the user applies that proposal (`isProposalOnly`).
 */
export function createDemoProfileTools(profiles: DemoProfiles): ToolDefinition[] {
  return [
    {
      name: 'profile.propose',
      title: 'Propose a profile change',
      titles: { 'zh-CN': '建议修改资料' },
      description:
        "Proposes a new display name and bio for the user's profile. Changes nothing: the user sees the change and applies or dismisses it.",
      parameters: PROFILE_PARAMETERS,
      policy: 'allow',
      run: async (args, { subject }) => {
        const current = profiles.read(subject.id);
        const next: DemoProfile = { displayName: String(args['displayName']), bio: String(args['bio']) };
        return propose({
          summary: 'Update your profile with the new display name and bio?',
          fields:
            next.displayName === current.displayName
              ? []
              : [{ name: 'Display name', before: current.displayName, after: next.displayName }],
          diff: { before: current.bio, after: next.bio },
          apply: { tool: 'profile.update', arguments: { ...next } },
        });
      },
    },
    {
      name: 'profile.update',
      title: 'Update the profile',
      titles: { 'zh-CN': '更新资料' },
      description: "Writes the user's display name and bio.",
      parameters: PROFILE_PARAMETERS,
      policy: 'allow',
      isProposalOnly: true,
      run: async (args, { subject }) => {
        const profile: DemoProfile = { displayName: String(args['displayName']), bio: String(args['bio']) };
        profiles.write(subject.id, profile);
        return { updated: true, profile };
      },
    },
  ];
}
