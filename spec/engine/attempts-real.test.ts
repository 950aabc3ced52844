import '../helpers/env.js';
import test from 'ava';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import type { HarnessName } from '../../domain/workflow.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, say, writeFile } from '../fixtures/model-server/script.js';
import { eventually } from '../helpers/env.js';
import { setRunCap } from '../helpers/http-kit.js';
import { pointCliAt, REAL, realCliEnv } from '../helpers/real-run.js';
import { testServer } from '../helpers/server.js';
import { control, detail, untilStanding } from '../helpers/steer.js';
import { closeBrowser, DESKTOP, openApp } from '../web/browser.js';
import { shot } from '../helpers/shots.js';

// One goal on the three real agent CLIs at once (claude, codex, opencode), each against a scripted
// model server of its own on loopback: three sibling runs, each editing its worktree differently,
// grouped as one card; compared over HTTP and in real Chromium; "Keep this one" archives the other
// two. Screenshots: /tmp/shots/attempts-real-*.png.

test.after.always(closeBrowser);

const HARNESSES: readonly HarnessName[] = ['claude', 'codex', 'opencode'];

test('three attempts on the real claude, codex and opencode CLIs: one card, compared, one kept', async (t) => {
  t.timeout(420_000);
  const cli = realCliEnv('claude');
  for (const h of HARNESSES) process.env[`SVC_HARNESS_BIN_${h.toUpperCase()}`] = join(process.cwd(), 'node_modules', '.bin', h);
  process.env['OPENAI_API_KEY'] = 'sk-test';
  const s = await testServer({ workflows: { real: REAL } });
  t.teardown(() => s.close());
  await setRunCap(s, 3);
  const started = await s.post('/api/runs', {
    project: s.projectId, goal: 'Write your own file and your notes.', title: 'Three agents, one goal', workflow: 'real', start: false,
    attempts: HARNESSES.map((harness) => ({ harness })),
  });
  t.is(started.status, 200, JSON.stringify(started.body));
  const ids = (started.body.attempts as { runId: string; harness: HarnessName }[]).map((a) => a.runId);
  t.deepEqual(started.body.attempts.map((a: any) => a.harness), HARNESSES);

  // each CLI's model writes its own file and its own notes.txt: the diffs differ, and share a file
  for (const [i, h] of HARNESSES.entries()) {
    const dir = worktreeDir(s.home, ids[i]!, basename(s.repo));
    const model = await startModelServer([
      writeFile(join(dir, `${h}.txt`), `made by ${h}\n`, 'Writing my file.'),
      writeFile(join(dir, 'notes.txt'), `notes by ${h}\n`, 'Writing my notes.'),
      callMcp('report_outcome', { outcome: 'success', summary: `${h} wrote its file and notes` }),
      say('Done.'),
    ]);
    t.teardown(() => model.close());
    pointCliAt(h, cli, model.url);
  }
  for (const id of ids) t.is((await control(s, id, 'Resume')).body.outcome, 'Applied');
  await Promise.all(ids.map((id) => untilStanding(s, id, 'Succeeded', 240_000).catch(async (err: Error) => {
    const log = (await s.get(`/api/runs/${id}/log?pageSize=200`)).body.lines.map((l: any) => `${l.source} ${l.text}`).join('\n');
    throw new Error(`${err.message}\n--- run log ---\n${log}`);
  })));
  for (const [i, h] of HARNESSES.entries()) {
    t.is(readFileSync(join(worktreeDir(s.home, ids[i]!, basename(s.repo)), 'notes.txt'), 'utf8'), `notes by ${h}\n`);
    t.like(await detail(s, ids[i]!), { outcome: 'success', attempt: { index: i, of: 3, kept: false } });
  }

  // compared over HTTP: the file all three wrote first, then each one's own
  const c = (await s.get(`/api/compare?a=${ids[0]}&b=${ids[2]}`)).body;
  t.like(c, { a: { harness: 'claude', standing: 'Succeeded' }, b: { harness: 'opencode', standing: 'Succeeded' }, sameGroup: true });
  t.deepEqual(c.folders[0].files.map((f: any) => f.path), ['notes.txt', 'claude.txt', 'opencode.txt']);
  t.regex(c.folders[0].files[0].a, /\+notes by claude/);
  t.regex(c.folders[0].files[0].b, /\+notes by opencode/);

  // in real Chromium: one card, Compare, Keep this one
  const app = await openApp(t, { viewport: DESKTOP, server: s });
  await app.goto('/');
  const card = app.page.locator('li.board-row[data-group]');
  await card.waitFor();
  t.is(await app.page.locator('li.board-row').count(), 1, 'three attempts, one card');
  t.deepEqual(await card.locator('li[data-attempt] a').allTextContents(), HARNESSES);
  await shot(app.page, '/tmp/shots/attempts-real-board.png', { fullPage: true });
  await card.getByRole('link', { name: 'Compare' }).click();
  await app.page.getByRole('heading', { level: 2, name: 'B: codex' }).waitFor();
  await app.page.locator('section.compare-file[data-file="notes.txt"] .d2h-file-wrapper').nth(1).waitFor();
  await app.page.locator('section.compare-file[data-file="notes.txt"]').getByText('notes by codex').waitFor();
  await app.axe(t, 'compare of two real attempts');
  await shot(app.page, '/tmp/shots/attempts-real-compare.png', { fullPage: true });
  await app.page.getByRole('button', { name: 'Keep this one: A (claude)' }).click();
  // it asks first, saying what archiving the others keeps of their worktrees
  const question = app.page.getByRole('group', { name: 'Confirm: Keep this one: A (claude)' });
  await question.getByText(/codex: .*(will be kept on branch svc\/\S+ and restored if you unarchive it|nothing is uncommitted)/).waitFor();
  await question.getByRole('button', { name: 'Keep this one' }).click();
  await app.page.getByRole('status').getByText(/^Kept A \(claude\); archived /).waitFor();
  for (const id of ids.slice(1)) await eventually(() => detail(s, id), (d) => d.archived === true);
  t.like(await detail(s, ids[0]!), { archived: false, attempt: { kept: true } });
  await shot(app.page, '/tmp/shots/attempts-real-kept.png', { fullPage: true });
  app.noErrors(t);
});
