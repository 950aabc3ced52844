// /api/skills on a real server with HOME (and XDG_CONFIG_HOME) in temp folders: list, install
// into each CLI's user skill folder, upgrade an untouched copy, refuse to overwrite a changed one
// without force (and keep it as a backup with force), and bad input.
import test from 'ava';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { bundledSkills } from '../../lib/skills/bundle.js';
import { tempDir } from '../helpers/env.js';
import { testServer, type TestServer } from '../helpers/server.js';

// the version skill.json gives: raising it (with its hashes recorded) needs no edit here
const VERSION = bundledSkills().find((k) => k.name === 'svc-mcp')!.version;

process.env['XDG_CONFIG_HOME'] = tempDir('svc-xdg-');
const HOME = process.env['HOME']!;

const install = (s: TestServer, body: unknown) => s.send('POST', '/api/skills/install', JSON.stringify(body));
const states = async (s: TestServer) => {
  const skill = ((await s.get('/api/skills')).body.skills as any[]).find((k) => k.name === 'svc-mcp');
  return Object.fromEntries((skill.harnesses as any[]).map((h) => [h.harness, h]));
};

// One server for the file: the tests share HOME, so they run one after another.
let s: TestServer;
test.before(async () => { s = await testServer(); });
test.after.always(async () => { await s.close(); });

test.serial('lists the bundled skill, and per harness where it would go and that it is not installed', async (t) => {
  const r = await s.get('/api/skills');
  t.is(r.status, 200);
  const skill = r.body.skills.find((k: any) => k.name === 'svc-mcp');
  t.like(skill, { name: 'svc-mcp', version: VERSION });
  const by = await states(s);
  t.deepEqual(by['claude'], { harness: 'claude', supported: true, folder: join(HOME, '.claude', 'skills', 'svc-mcp'), installed: { _tag: 'NotInstalled' } });
  t.is(by['codex'].folder, join(HOME, '.agents', 'skills', 'svc-mcp'));
  t.is(by['opencode'].folder, join(process.env['XDG_CONFIG_HOME']!, 'opencode', 'skills', 'svc-mcp'));
});

test.serial('installs into each harness folder, then an untouched copy is simply replaced', async (t) => {
  for (const harness of ['claude', 'codex', 'opencode']) {
    const r = await install(s, { skill: 'svc-mcp', harness });
    t.is(r.status, 200, JSON.stringify(r.body));
    t.like(r.body, { skill: 'svc-mcp', harness, version: VERSION, replaced: 'Nothing', backup: null });
    t.true(readFileSync(join(r.body.folder, 'SKILL.md'), 'utf8').startsWith('---\nname: svc-mcp\n'));
    t.true(existsSync(join(r.body.folder, 'reference.md')));
    t.regex(readFileSync(join(r.body.folder, 'setup.md'), 'utf8'), new RegExp(`${harness} mcp add`));
  }
  const by = await states(s);
  for (const h of ['claude', 'codex', 'opencode']) t.deepEqual(by[h].installed, { _tag: 'Installed', version: VERSION, upToDate: true });
  const again = await install(s, { skill: 'svc-mcp', harness: 'claude' });
  t.like(again.body, { replaced: 'Bundled', backup: null });
});

test.serial('a copy the user changed is never overwritten without force; with force it is kept as an owner-only backup', async (t) => {
  const folder = join(HOME, '.claude', 'skills', 'svc-mcp');
  const edited = readFileSync(join(folder, 'SKILL.md'), 'utf8') + '\nMy own rule: always say please.\n';
  writeFileSync(join(folder, 'SKILL.md'), edited);
  const by = await states(s);
  t.like(by['claude'].installed, { _tag: 'Changed', version: VERSION });
  t.regex(by['claude'].installed.detail, new RegExp(`differ from svc's version ${VERSION.replaceAll('.', '\\.')}`));

  const refused = await install(s, { skill: 'svc-mcp', harness: 'claude' });
  t.is(refused.status, 409);
  t.regex(refused.body.detail, /was changed .*"force": true/);
  t.is(readFileSync(join(folder, 'SKILL.md'), 'utf8'), edited, 'the edit is untouched');

  const forced = await install(s, { skill: 'svc-mcp', harness: 'claude', force: true });
  t.is(forced.status, 200);
  t.like(forced.body, { replaced: 'Changed' });
  t.true(forced.body.backup.startsWith(join(s.home, 'skill-backups') + '/'), forced.body.backup);
  t.is(readFileSync(join(forced.body.backup, 'SKILL.md'), 'utf8'), edited, 'the backup holds the edit');
  t.is(statSync(forced.body.backup).mode & 0o777, 0o700);
  t.is(statSync(join(forced.body.backup, 'SKILL.md')).mode & 0o777, 0o600);
  t.deepEqual((await states(s))['claude'].installed, { _tag: 'Installed', version: VERSION, upToDate: true });

  // An extra file counts as a change too.
  writeFileSync(join(HOME, '.agents', 'skills', 'svc-mcp', 'notes.md'), 'mine');
  t.is((await states(s))['codex'].installed._tag, 'Changed');
  t.is((await install(s, { skill: 'svc-mcp', harness: 'codex' })).status, 409);
});

test.serial('a skill folder that is a symlink to the user\'s own folder is a change; force replaces the link, not what it points to', async (t) => {
  const mine = tempDir('svc-own-skill-');
  writeFileSync(join(mine, 'SKILL.md'), '---\nname: svc-mcp\ndescription: mine\n---\nmine\n');
  const root = join(process.env['XDG_CONFIG_HOME']!, 'opencode', 'skills');
  mkdirSync(root, { recursive: true });
  const folder = join(root, 'svc-mcp');
  (await import('node:fs')).rmSync(folder, { recursive: true, force: true });
  symlinkSync(mine, folder);
  t.like((await states(s))['opencode'].installed, { _tag: 'Changed', version: null, detail: 'the skill folder is a symbolic link' });
  t.is((await install(s, { skill: 'svc-mcp', harness: 'opencode' })).status, 409);
  const forced = await install(s, { skill: 'svc-mcp', harness: 'opencode', force: true });
  t.is(forced.status, 200);
  t.false(lstatSync(folder).isSymbolicLink());
  t.is(readFileSync(join(mine, 'SKILL.md'), 'utf8'), '---\nname: svc-mcp\ndescription: mine\n---\nmine\n', 'the linked folder is untouched');
});

test.serial('bad input is a 4xx with a detail and installs nothing', async (t) => {
  const cases: [string, number, RegExp][] = [
    [JSON.stringify({ skill: 'nope', harness: 'claude' }), 404, /unknown skill "nope"; bundled: svc-mcp/],
    [JSON.stringify({ skill: 'svc-mcp', harness: 'gemini' }), 400, /harness/],
    [JSON.stringify({ skill: 'svc-mcp' }), 400, /harness is required/],
    [JSON.stringify({ harness: 'claude' }), 400, /skill is required/],
    [JSON.stringify({ skill: 7, harness: 'claude' }), 400, /skill must be string/],
    [JSON.stringify({ skill: 'svc-mcp', harness: 'claude', force: 'yes' }), 400, /force must be boolean/],
    [JSON.stringify({ skill: 'svc-mcp', harness: 'claude', overwrite: true }), 400, /unknown field "overwrite"/],
    ['[]', 400, /JSON object/],
    ['{"skill":', 400, /malformed JSON/],
  ];
  for (const [body, status, detail] of cases) {
    const r = await s.send('POST', '/api/skills/install', body);
    t.is(r.status, status, body);
    t.regex(String(r.body?.detail), detail, body);
  }
  t.is((await s.send('POST', '/api/skills/install', 'x', { 'content-type': 'text/plain' })).status, 415);
  t.is((await s.get('/api/skills/install')).status, 405);
  t.is((await s.send('DELETE', '/api/skills')).status, 405);
});
