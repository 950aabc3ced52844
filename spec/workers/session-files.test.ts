import '../helpers/env.js';
import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gatherSession, placeSession } from '../../lib/workers/session-files.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { say } from '../fixtures/model-server/script.js';
import { tempDir } from '../helpers/env.js';
import { opencodeTestEnv, writeCodexConfig, writeOpencodeConfig } from '../harness/sandbox.js';

// Sessions move between machines as their files (lib/workers/session-files.ts, docs/workers.md
// "Sessions move"): what one machine's CLI wrote is gathered and written where another machine's
// CLI looks, and nothing of another shape is written. codex's move is shown with the real CLI:
// its rollout file alone, in a fresh CODEX_HOME, resumes the thread with its earlier turns; and
// opencode's with the real CLI: its own export, imported into a fresh data folder, resumes there.

test('a claude session file goes from one config dir to another; paths of any other shape are not written', async (t) => {
  const [a, b] = [tempDir('svc-claude-a-'), tempDir('svc-claude-b-')];
  const slug = '-tmp-run-folder';
  mkdirSync(join(a, 'projects', slug), { recursive: true });
  writeFileSync(join(a, 'projects', slug, 'abc-123.jsonl'), '{"type":"user"}\n');
  writeFileSync(join(a, 'projects', slug, 'other.jsonl'), 'not this one\n');
  const blob = await gatherSession('claude', 'abc-123', { CLAUDE_CONFIG_DIR: a });
  t.truthy(blob);
  t.is(await placeSession('claude', blob!, { CLAUDE_CONFIG_DIR: b }), 1);
  t.is(readFileSync(join(b, 'projects', slug, 'abc-123.jsonl'), 'utf8'), '{"type":"user"}\n');
  t.false(existsSync(join(b, 'projects', slug, 'other.jsonl')));
  t.is(await gatherSession('claude', 'nope', { CLAUDE_CONFIG_DIR: a }), null);
  t.is(await gatherSession('claude', '../x', { CLAUDE_CONFIG_DIR: a }), null);
  const evil = Buffer.from(JSON.stringify({ files: [
    { path: '../escaped.jsonl', data: 'eA==' }, { path: 'projects/../../escaped.jsonl', data: 'eA==' },
    { path: 'settings.json', data: 'eA==' }, { path: 'projects/x/y/z.jsonl', data: 'eA==' }, { path: 7, data: 'eA==' },
  ] }));
  t.is(await placeSession('claude', evil, { CLAUDE_CONFIG_DIR: b }), 0);
  t.false(existsSync(join(b, '..', 'escaped.jsonl')));
  t.is(await gatherSession('opencode', '../ses_1', {}), null, 'an id of another shape is never asked of opencode');
});

const codex = (cwd: string, home: string, args: string[]) => new Promise<string>((resolve, reject) => {
  const c = execFile(join(process.cwd(), 'node_modules', '.bin', 'codex'), ['exec', '--json', '--skip-git-repo-check', ...args],
    { cwd, env: { ...process.env, CODEX_HOME: home, OPENAI_API_KEY: 'sk-test' }, timeout: 180_000 }, (e, out, err) => (e ? reject(new Error(`${String(e)}\n${err}`)) : resolve(out)));
  c.stdin?.end();
});

test('a codex thread moves as its rollout file: resumed from a fresh CODEX_HOME, its earlier turn reaches the model', async (t) => {
  t.timeout(300_000);
  const model = await startModelServer([say('FIRST-CODEX-ANSWER'), say('SECOND-CODEX-ANSWER')]);
  t.teardown(() => model.close());
  const homes = [tempDir('svc-codex-a-'), tempDir('svc-codex-b-')];
  for (const h of homes) writeCodexConfig({ root: h, repo: '', env: { CODEX_HOME: h }, cleanup: () => undefined }, model.url);
  const cwd = tempDir('svc-codex-cwd-');
  const thread = /"thread_id":"([^"]+)"/.exec(await codex(cwd, homes[0]!, ['Say something.']))?.[1];
  t.truthy(thread);
  const blob = await gatherSession('codex', thread!, { CODEX_HOME: homes[0]! });
  t.truthy(blob, 'the thread\'s rollout file was found');
  t.is(await placeSession('codex', blob!, { CODEX_HOME: homes[1]! }), 1);
  const again = await codex(cwd, homes[1]!, ['resume', thread!, 'Say more.']);
  t.true(again.includes('SECOND-CODEX-ANSWER'));
  t.true(JSON.stringify(model.scriptedBodies()[1]).includes('FIRST-CODEX-ANSWER'), 'the resumed request holds the first turn');
});

const xdg = (root: string) => ({ HOME: root, XDG_CONFIG_HOME: join(root, 'config'), XDG_DATA_HOME: join(root, 'data'), XDG_STATE_HOME: join(root, 'state'), XDG_CACHE_HOME: join(root, 'cache') });
const OPENCODE = join(process.cwd(), 'node_modules', '.bin', 'opencode');
// opencode takes its folder from PWD: the same folder on both machines, as run folders are
const opencode = (cwd: string, env: Record<string, string>, args: string[]) => new Promise<string>((resolve, reject) => {
  const c = execFile(OPENCODE, args, { cwd, env: { ...process.env, ...opencodeTestEnv, ...env, PWD: cwd }, timeout: 180_000 }, (e, out, err) => (e ? reject(new Error(`${String(e)}\n${err}`)) : resolve(out)));
  c.stdin?.end();
});

test('an opencode session moves through its own export and import: resumed from a fresh data folder, its earlier turn reaches the model', async (t) => {
  t.timeout(300_000);
  const model = await startModelServer([say('FIRST-OPENCODE-ANSWER'), say('SECOND-OPENCODE-ANSWER')]);
  t.teardown(() => model.close());
  const [a, b] = [xdg(tempDir('svc-opencode-a-')), xdg(tempDir('svc-opencode-b-'))];
  for (const env of [a, b]) writeOpencodeConfig({ root: env.HOME, repo: '', env, cleanup: () => undefined }, model.url);
  const cwd = tempDir('svc-opencode-cwd-');
  const session = /"sessionID":"([^"]+)"/.exec(await opencode(cwd, a, ['run', '--format', 'json', 'Say something.']))?.[1];
  t.truthy(session);
  const withOpencode = (env: Record<string, string>) => ({ ...process.env, ...opencodeTestEnv, ...env, PWD: cwd });
  const blob = await gatherSession('opencode', session!, withOpencode(a), { bin: OPENCODE, cwd });
  t.truthy(blob, 'opencode exported the session');
  t.is(await gatherSession('opencode', session!, withOpencode(b), { bin: OPENCODE, cwd }), null, 'the other machine has no such session yet');
  t.is(await placeSession('opencode', blob!, withOpencode(b), { bin: OPENCODE, cwd }), 1);
  const again = await opencode(cwd, b, ['run', '--format', 'json', '--session', session!, 'Say more.']);
  t.true(again.includes('SECOND-OPENCODE-ANSWER'), again.slice(0, 500));
  t.true(JSON.stringify(model.scriptedBodies().at(-1)).includes('FIRST-OPENCODE-ANSWER'), 'the resumed request holds the first turn');
  t.is(await placeSession('opencode', Buffer.from('{"opencode":{"info":{"id":"../x"}}}'), withOpencode(b), { bin: OPENCODE, cwd }), 0, 'an export naming another shape of id is not imported');
});
