// The bundled skills themselves: valid Agent Skills front matter for all three CLIs, a version
// that matches skill.json, a recorded hash for that version (editing a skill without raising its
// version and recording it fails here), the topics the svc skill must teach, and a reference that
// names every MCP tool svc offers with its arguments (a tool added without it fails here).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledSkills, filesFor, hashFiles } from '../../lib/skills/bundle.js';
import { claimedVersion } from '../../lib/skills/installed.js';
import { TOOLS } from '../../lib/mcp/registry.js';

const frontMatter = (text: string): Record<string, string> => {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!m) return {};
  return Object.fromEntries(m[1]!.split('\n').filter((l) => /^\w[\w-]*:/.test(l)).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]));
};

test('each bundled skill is a valid SKILL.md for every harness it names, at the version skill.json gives', (t) => {
  const skills = bundledSkills();
  t.deepEqual(skills.map((s) => s.name), ['svc-mcp']);
  for (const skill of skills) {
    t.deepEqual([...skill.harnesses].sort(), ['claude', 'codex', 'opencode']);
    t.regex(skill.name, /^[a-z0-9]+(-[a-z0-9]+)*$/, 'the name rule OpenCode enforces');
    for (const harness of skill.harnesses) {
      const files = filesFor(skill, harness);
      const md = files.get('SKILL.md')!;
      t.truthy(md, `${skill.name} for ${harness} has SKILL.md`);
      const fm = frontMatter(md.toString('utf8'));
      t.is(fm['name'], skill.name, 'name matches the folder it is installed in');
      t.true(fm['description']!.length > 40 && fm['description']!.length <= 500, 'a description Codex accepts (at most 500 characters, one line)');
      t.is(claimedVersion(md), skill.version);
      t.true(files.has('setup.md'), `${harness} gets its own setup notes`);
      t.is(skill.hashes[skill.version]?.[harness], hashFiles(files), `${skill.name} ${skill.version} for ${harness}: run npx tsx lib/skills/record-hashes.ts after raising the version`);
    }
  }
});

test('the svc skill teaches waiting, positions and Stale, reasons, questions, reading, and distrust of run text', (t) => {
  const skill = bundledSkills().find((s) => s.name === 'svc-mcp')!;
  const text = readFileSync(join(skill.dir, 'common', 'SKILL.md'), 'utf8');
  for (const must of ['wait_for_run', 'position', 'Stale', 'reason', 'answer_question', 'read_run_thread', 'read_run_log', 'Never follow instructions', 'allowedActions', 'never poll']) {
    t.true(text.includes(must), must);
  }
  t.true(readFileSync(join(skill.dir, 'claude', 'setup.md'), 'utf8').includes('claude mcp add'));
  t.true(readFileSync(join(skill.dir, 'codex', 'setup.md'), 'utf8').includes('codex mcp add'));
  t.true(readFileSync(join(skill.dir, 'opencode', 'setup.md'), 'utf8').includes('opencode mcp add'));
});

// `reason` is said once above the table, for every tool; an argument a tool refuses is not taught
const taught = (name: string, schema: { readonly description?: string }): boolean => name !== 'reason' && !schema.description?.startsWith('Not supported');

test('the svc skill\'s reference has a row for every MCP tool, naming each argument the tool takes', (t) => {
  const skill = bundledSkills().find((s) => s.name === 'svc-mcp')!;
  const rows = readFileSync(join(skill.dir, 'common', 'reference.md'), 'utf8').split('\n').filter((l) => l.startsWith('| `'));
  for (const tool of TOOLS) {
    const row = rows.find((r) => r.split(' | ')[0]!.includes(`\`${tool.name}\``));
    if (!row) { t.fail(`reference.md has no row for ${tool.name}`); continue; }
    const args = row.split(' | ')[1]!;
    const props = Object.entries((tool.inputSchema['properties'] ?? {}) as Record<string, { description?: string }>);
    for (const [name, schema] of props.filter(([n, s]) => taught(n, s))) t.true(args.includes(`\`${name}`), `${tool.name}'s row names ${name}`);
  }
});
