// Installing over a copy of an older release: an untouched old copy upgrades without force, an
// edited one does not. A temporary bundle (two versions of one skill) on the real file system.
import test from 'ava';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/env.js';
import { bundledSkills, filesFor, hashFiles } from '../../lib/skills/bundle.js';
import { installSkill } from '../../lib/skills/install.js';
import { installedState } from '../../lib/skills/installed.js';

const skillMd = (version: string, body: string) => `---\nname: demo\ndescription: A demo skill for tests.\nmetadata:\n  version: "${version}"\n---\n${body}\n`;

const bundleAt = (version: string, body: string, hashes: Record<string, Record<string, string>>): string => {
  const root = tempDir('svc-bundle-');
  mkdirSync(join(root, 'demo', 'common'), { recursive: true });
  writeFileSync(join(root, 'demo', 'common', 'SKILL.md'), skillMd(version, body));
  writeFileSync(join(root, 'demo', 'skill.json'), JSON.stringify({ name: 'demo', version, description: 'demo', harnesses: ['claude'], hashes }));
  return root;
};

test('an untouched copy of an older version is Installed but not up to date, and upgrades without force', (t) => {
  const v1 = bundledSkills(bundleAt('1.0.0', 'old body', {}))[0]!;
  const v1Hash = hashFiles(filesFor(v1, 'claude'));
  const v2 = bundledSkills(bundleAt('2.0.0', 'new body', { '1.0.0': { claude: v1Hash } }))[0]!;
  const v2Full = { ...v2, hashes: { ...v2.hashes, '2.0.0': { claude: hashFiles(filesFor(v2, 'claude')) } } };
  const skills = tempDir('svc-skills-');
  const home = tempDir('svc-home-');
  const opts = { force: false, svcHome: home, stamp: 'now' };

  const first = installSkill({ ...v1, hashes: { '1.0.0': { claude: v1Hash } } }, 'claude', skills, opts);
  t.is(first._tag, 'Right');
  t.deepEqual(installedState(v2Full, 'claude', join(skills, 'demo')), { _tag: 'Installed', version: '1.0.0', upToDate: false });
  const upgraded = installSkill(v2Full, 'claude', skills, opts);
  t.like(upgraded, { _tag: 'Right', right: { replaced: 'Bundled', version: '2.0.0', backup: null } });
  t.true(readFileSync(join(skills, 'demo', 'SKILL.md'), 'utf8').includes('new body'));
  t.deepEqual(installedState(v2Full, 'claude', join(skills, 'demo')), { _tag: 'Installed', version: '2.0.0', upToDate: true });

  writeFileSync(join(skills, 'demo', 'SKILL.md'), skillMd('1.0.0', 'old body, edited'));
  t.like(installedState(v2Full, 'claude', join(skills, 'demo')), { _tag: 'Changed', version: '1.0.0' });
  t.like(installSkill(v2Full, 'claude', skills, opts), { _tag: 'Left', left: { _tag: 'Changed' } });
  writeFileSync(join(skills, 'demo', 'SKILL.md'), skillMd('0.5.0', 'never shipped'));
  t.like(installedState(v2Full, 'claude', join(skills, 'demo')), { _tag: 'Changed', version: '0.5.0', detail: 'version 0.5.0 was never bundled with svc' });
});
