// Semantic Versioning 2.0.0 precedence (semver.org, section 11), for telling whether the feed's
// latest release is newer than the one running. Build metadata (`+...`) does not count; a
// pre-release (`1.2.0-rc.1`) comes before its release.

export interface SemVer {
  readonly core: readonly [number, number, number];
  readonly pre: readonly (string | number)[];
}

const PATTERN = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** undefined when the text is not a semantic version */
export const parseSemVer = (text: string): SemVer | undefined => {
  const m = PATTERN.exec(text.trim());
  if (!m) return undefined;
  const pre = m[4] ? m[4].split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : [];
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre };
};

const compareIds = (a: string | number, b: string | number): number => {
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  if (typeof a === 'number') return -1; // numeric identifiers come before alphanumeric ones
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
};

const comparePre = (a: SemVer['pre'], b: SemVer['pre']): number => {
  if (a.length === 0 || b.length === 0) return b.length - a.length === 0 ? 0 : a.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareIds(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return Math.sign(a.length - b.length);
};

/** negative when a comes before b, positive after, 0 for the same precedence */
export const compareSemVer = (a: SemVer, b: SemVer): number => {
  for (let i = 0; i < 3; i++) if (a.core[i] !== b.core[i]) return Math.sign(a.core[i]! - b.core[i]!);
  return comparePre(a.pre, b.pre);
};
