import '../helpers/env.js';
import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gatherSession, placeSession } from '../../lib/workers/session-files.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { say } from '../fixtures/model-server/script.js';
import { tempDir } from '../helpers/env.js';
import { writeCodexConfig } from '../harness/sandbox.js';

// Sessions move between machines as their files (lib/workers/session-files.ts, docs/workers.md
// "Sessions move"): what one machine's CLI wrote is gathered and written where another machine's
// CLI looks, and nothing of another shape is written. codex's move is shown with the real CLI:
// its rollout file alone, in a fresh CODEX_HOME, resumes the thread with its earlier turns.

test('a claude session file goes from one config dir to another; paths of any other shape are not written', (t) => {
  const [a, b] = [tempDir('svc-claude-a-'), tempDir('svc-claude-b-')];
  const slug = '-tmp-run-folder';
  mkdirSync(join(a, 'projects', slug), { recursive: true });
  writeFileSync(join(a, 'projects', slug, 'abc-123.jsonl'), '{"type":"user"}\n');
  writeFileSync(join(a, 'projects', slug, 'other.jsonl'), 'not this one\n');
  const blob = gatherSession('claude', 'abc-123', { CLAUDE_CONFIG_DIR: a });
  t.truthy(blob);
  t.is(placeSession('claude', blob!, { CLAUDE_CONFIG_DIR: b }), 1);
  t.is(readFileSync(join(b, 'projects', slug, 'abc-123.jsonl'), 'utf8'), '{"type":"user"}\n');
  t.false(existsSync(join(b, 'projects', slug, 'other.jsonl')));
  t.is(gatherSession('claude', 'nope', { CLAUDE_CONFIG_DIR: a }), null);
  t.is(gatherSession('claude', '../x', { CLAUDE_CONFIG_DIR: a }), null);
  const evil = Buffer.from(JSON.stringify({ files: [
    { path: '../escaped.jsonl', data: 'eA==' }, { path: 'projects/../../escaped.jsonl', data: 'eA==' },
    { path: 'settings.json', data: 'eA==' }, { path: 'projects/x/y/z.jsonl', data: 'eA==' }, { path: 7, data: 'eA==' },
  ] }));
  t.is(placeSession('claude', evil, { CLAUDE_CONFIG_DIR: b }), 0);
  t.false(existsSync(join(b, '..', 'escaped.jsonl')));
  t.is(gatherSession('opencode', 'ses_1', {}), null, 'opencode sessions do not move yet');
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
  const blob = gatherSession('codex', thread!, { CODEX_HOME: homes[0]! });
  t.truthy(blob, 'the thread\'s rollout file was found');
  t.is(placeSession('codex', blob!, { CODEX_HOME: homes[1]! }), 1);
  const again = await codex(cwd, homes[1]!, ['resume', thread!, 'Say more.']);
  t.true(again.includes('SECOND-CODEX-ANSWER'));
  t.true(JSON.stringify(model.scriptedBodies()[1]).includes('FIRST-CODEX-ANSWER'), 'the resumed request holds the first turn');
});
