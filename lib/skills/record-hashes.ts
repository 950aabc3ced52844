import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledSkills, filesFor, hashFiles } from './bundle.js';

// Run after changing a bundled skill (with its version raised in skill.json and SKILL.md):
//   npx tsx lib/skills/record-hashes.ts
// It records what the current version installs for each harness. Hashes of earlier versions stay,
// so an untouched copy of an older release is still told apart from one the user changed.
for (const skill of bundledSkills()) {
  const path = join(skill.dir, 'skill.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as { hashes: Record<string, Record<string, string>> };
  manifest.hashes[skill.version] = Object.fromEntries(skill.harnesses.map((h) => [h, hashFiles(filesFor(skill, h))]));
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`${skill.name} ${skill.version}: recorded`);
}
