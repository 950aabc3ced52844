// Skills as /api/skills shows them (docs/skills.md), and their state in plain words.

export type InstalledState =
  | { readonly _tag: 'NotInstalled' }
  | { readonly _tag: 'Installed'; readonly version: string; readonly upToDate: boolean }
  | { readonly _tag: 'Changed'; readonly version: string | null; readonly detail: string };

export interface SkillHarness {
  readonly harness: string;
  /** false: the skill has no form for that CLI */
  readonly supported: boolean;
  /** where installing puts it (under the user's HOME) */
  readonly folder: string;
  readonly installed: InstalledState;
}

export interface Skill {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly harnesses: readonly SkillHarness[];
}

export interface InstallResult {
  readonly skill: string;
  readonly harness: string;
  readonly version: string;
  readonly folder: string;
  readonly replaced: 'Nothing' | 'Bundled' | 'Changed';
  readonly backup: string | null;
}

/** `Installed 1.0.0, up to date`, `Changed by you (from 1.0.0)` */
export const describeInstalled = (h: SkillHarness): string => {
  if (!h.supported) return 'No form for this CLI';
  const s = h.installed;
  switch (s._tag) {
    case 'NotInstalled': return 'Not installed';
    case 'Installed': return `Installed ${s.version}, ${s.upToDate ? 'up to date' : 'an older version'}`;
    case 'Changed': return `Changed by you${s.version ? ` (from ${s.version})` : ''}`;
  }
};

/** what installing would do now: its button's words, or null when there is nothing to do */
export const installAction = (h: SkillHarness, version: string): { readonly label: string; readonly force: boolean } | null => {
  if (!h.supported) return null;
  const s = h.installed;
  switch (s._tag) {
    case 'NotInstalled': return { label: 'Install', force: false };
    case 'Installed': return s.upToDate ? null : { label: `Update to ${version}`, force: false };
    case 'Changed': return { label: `Replace with ${version}…`, force: true };
  }
};

export const installedText = (r: InstallResult): string =>
  `${r.replaced === 'Nothing' ? 'Installed' : 'Updated'} ${r.skill} ${r.version} for ${r.harness} in ${r.folder}.${r.backup ? ` Your copy was moved to ${r.backup}.` : ''} Restart a running ${r.harness} session to pick it up.`;
