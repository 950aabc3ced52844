import { join } from 'node:path';
import { left, type Either } from 'fp-ts/lib/Either.js';
import { HARNESSES, type HarnessName } from '../../domain/workflow.js';
import { bundledSkills, type BundledSkill } from './bundle.js';
import { skillsRoot } from './folders.js';
import { installSkill, type InstallResult } from './install.js';
import { installedState, type InstalledState } from './installed.js';

// GET /api/skills and POST /api/skills/install, over the bundled skills and the real HOME.

export interface SkillHarnessView {
  readonly harness: HarnessName;
  /** false: this skill has no form for that CLI */
  readonly supported: boolean;
  /** where installing puts it (under the user's HOME) */
  readonly folder: string;
  readonly installed: InstalledState;
}

export interface SkillView {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly harnesses: readonly SkillHarnessView[];
}

export interface SkillsDeps {
  readonly svcHome: string;
  readonly now: () => Date;
  readonly bundledRoot?: string;
  readonly env?: NodeJS.ProcessEnv;
}

export type SkillRefusal = { readonly status: 400 | 404 | 409; readonly detail: string };

const harnessView = (skill: BundledSkill, harness: HarnessName, env: NodeJS.ProcessEnv | undefined): SkillHarnessView => {
  const folder = join(skillsRoot(harness, env), skill.name);
  const supported = skill.harnesses.includes(harness);
  return { harness, supported, folder, installed: supported ? installedState(skill, harness, folder) : { _tag: 'NotInstalled' } };
};

export const listSkills = (deps: SkillsDeps): SkillView[] =>
  bundledSkills(deps.bundledRoot).map((s) => ({
    name: s.name, version: s.version, description: s.description,
    harnesses: HARNESSES.map((h) => harnessView(s, h, deps.env)),
  }));

export const install = (deps: SkillsDeps, req: { skill: string; harness: HarnessName; force: boolean }): Either<SkillRefusal, InstallResult> => {
  const skills = bundledSkills(deps.bundledRoot);
  const skill = skills.find((s) => s.name === req.skill);
  if (!skill) return left({ status: 404, detail: `unknown skill ${JSON.stringify(req.skill.slice(0, 80))}; bundled: ${skills.map((s) => s.name).join(', ')}` });
  if (!skill.harnesses.includes(req.harness)) return left({ status: 400, detail: `skill ${skill.name} has no form for ${req.harness} (it is written for ${skill.harnesses.join(', ')})` });
  const stamp = deps.now().toISOString().replace(/[:.]/g, '-');
  const r = installSkill(skill, req.harness, skillsRoot(req.harness, deps.env), { force: req.force, svcHome: deps.svcHome, stamp });
  return r._tag === 'Left' ? left({ status: 409, detail: r.left.detail }) : r;
};
