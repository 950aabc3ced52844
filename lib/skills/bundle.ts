import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import { packageRoot } from '../package-root.js';
import { HARNESSES, type HarnessName } from '../../domain/workflow.js';

// The skills svc ships, under lib/skills/bundled/<skill>/: `skill.json` (name, version, the
// harnesses it is written for, and the content hash of every released version per harness),
// `common/` (files every harness gets) and `<harness>/` (files only that harness gets). What is
// installed for a harness is common/ plus <harness>/, and its hash tells an untouched copy of any
// released version from one the user changed.

const Manifest = t.type({
  name: t.string,
  version: t.string,
  description: t.string,
  harnesses: t.array(t.keyof({ claude: null, codex: null, opencode: null })),
  /** version -> harness -> content hash of what that version installs */
  hashes: t.record(t.string, t.partial({ claude: t.string, codex: t.string, opencode: t.string })),
});

export interface BundledSkill {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly harnesses: readonly HarnessName[];
  readonly hashes: Readonly<Record<string, Partial<Record<HarnessName, string>>>>;
  readonly dir: string;
}

/** relative path -> content */
export type SkillFiles = ReadonlyMap<string, Buffer>;

export const bundledDir = (): string => join(packageRoot(), 'lib', 'skills', 'bundled');

const walk = (dir: string, prefix: string, into: Map<string, Buffer>): void => {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) walk(join(dir, entry.name), rel, into);
    else if (entry.isFile()) into.set(rel, readFileSync(join(dir, entry.name)));
  }
};

/** what installing `skill` for `harness` writes: common/ overlaid by <harness>/ */
export const filesFor = (skill: BundledSkill, harness: HarnessName): SkillFiles => {
  const files = new Map<string, Buffer>();
  walk(join(skill.dir, 'common'), '', files);
  walk(join(skill.dir, harness), '', files);
  return files;
};

/** one hash over paths and contents, independent of the order files were read in */
export const hashFiles = (files: SkillFiles): string => {
  const h = createHash('sha256');
  for (const path of [...files.keys()].sort()) h.update(`${path}\0${files.get(path)!.length}\0`).update(files.get(path)!);
  return h.digest('hex');
};

const readSkill = (dir: string): BundledSkill => {
  const decoded = Manifest.decode(JSON.parse(readFileSync(join(dir, 'skill.json'), 'utf8')));
  if (isLeft(decoded)) throw new Error(`bundled skill ${dir}: skill.json is not valid`);
  const m = decoded.right;
  return { ...m, harnesses: m.harnesses.filter((h) => (HARNESSES as readonly string[]).includes(h)), dir };
};

/** every bundled skill, by name */
export const bundledSkills = (root = bundledDir()): BundledSkill[] =>
  readdirSync(root)
    .filter((d) => statSync(join(root, d)).isDirectory() && existsSync(join(root, d, 'skill.json')))
    .sort()
    .map((d) => readSkill(join(root, d)));
