import test from 'ava';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, say, writeFile } from '../fixtures/model-server/script.js';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { pointCliAt, realCliEnv } from '../helpers/real-run.js';
import { STRICT } from '../helpers/server.js';
import { control, untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS, type AppSession } from './browser.js';
import { shot } from '../helpers/shots.js';

// Issue 31's proof on the real claude CLI against the scripted model, in real Chromium at both
// sizes: while the agent's turn is still going, two comments are written at their lines of the
// diff and sent from the bottom bar; the model's next request holds both; after the agent's edit
// of one line, that thread reads Outdated and the other Current, each still under its line.
// (Own file: realCliEnv points this process's harness at the real CLIs.) Shots: /tmp/w31-shots/.

test.after.always(closeBrowser);

const lineNo = (app: AppSession, n: number) =>
  app.page.locator('.d2h-file-wrapper', { hasText: 'greet.txt' }).locator('.d2h-code-linenumber .line-num2').getByText(String(n), { exact: true });
const lineAbove = (app: AppSession, text: string) => app.page.locator('tr.review-row', { has: app.page.locator('[data-comment]', { hasText: text }) }).evaluate((row) => {
  let r = row.previousElementSibling;
  while (r?.classList.contains('review-row')) r = r.previousElementSibling;
  return r?.querySelector('.line-num2')?.textContent?.trim() ?? null;
});

const comment = async (app: AppSession, line: number, text: string) => {
  await lineNo(app, line).click();
  const box = app.page.getByRole('form', { name: `Comment on greet.txt:${line}` });
  await box.getByRole('textbox').fill(text);
  await box.getByRole('button', { name: 'Add to review' }).click();
  await box.waitFor({ state: 'detached' });
};

for (const viewport of VIEWPORTS) {
  test.serial(`two comments at their lines reach the real claude CLI; after its edit one reads outdated, one current (${viewport.name})`, async (t) => {
    t.timeout(300_000);
    const cli = realCliEnv('claude');
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const app = await openApp(t, { viewport, workflows: { strict: STRICT } });
    const s = app.server;
    const runId = (await s.post('/api/runs', { project: s.projectId, goal: 'Write greet.txt.', workflow: 'strict', harness: 'claude', start: false })).body.runId as string;
    const file = join(worktreeDir(s.home, runId, basename(s.repo)), 'greet.txt');
    const model = await startModelServer([
      writeFile(file, 'const greeting = "hello";\nconst target = "wrold";\n', 'Writing greet.txt.'),
      { kind: 'reply', text: 'Written.', gate },
      writeFile(file, 'const greeting = "hello";\nconst target = "world";\n', 'Fixing the typo.'),
      callMcp('report_outcome', { outcome: 'success', summary: 'typo fixed as reviewed' }),
      say('Done.'),
    ]);
    t.teardown(() => (release(), model.close()));
    pointCliAt('claude', cli, model.url);
    t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');
    await model.waitForScripted(2);

    // the turn is still going: the person reads the diff and writes at two lines
    await app.goto(`/runs/${runId}?tab=worktree`);
    await comment(app, 2, 'Typo in the target (note 5521).');
    await comment(app, 1, 'This line is fine (note 7730).');
    const bar = app.page.getByRole('region', { name: 'Draft review' });
    await bar.getByText('2 comments', { exact: true }).waitFor();
    await bar.getByRole('textbox', { name: 'Summary (optional)' }).fill('Fix the typo, nothing else.');
    await app.axe(t, 'two drafts on a live run');
    await shot(app.page, `/tmp/w31-shots/claude-draft-${viewport.width}.png`);
    await bar.getByRole('button', { name: 'Send to agent' }).click();
    await app.page.getByRole('status').filter({ hasText: 'Review sent to the agent.' }).waitFor();
    release();

    await untilStanding(s, runId, 'Succeeded', 240_000);
    const bodies = model.scriptedBodies().map((b) => JSON.stringify(b));
    t.false(bodies.slice(0, 2).some((b) => b.includes('note 5521')), 'the first requests were made before the review');
    const withReview = bodies.find((b) => b.includes('note 5521'));
    t.truthy(withReview, 'the review reached the model');
    for (const part of ['greet.txt:2', 'const target = \\"wrold\\";', 'Typo in the target (note 5521).', 'greet.txt:1', 'This line is fine (note 7730).', 'Fix the typo, nothing else.']) {
      t.true(withReview!.includes(part), part);
    }
    t.is(readFileSync(file, 'utf8'), 'const greeting = "hello";\nconst target = "world";\n', 'the agent\'s edit landed');

    // the page, read again as the run moved: the edited line's thread is Outdated, the other Current, each at its line
    const outdated = app.page.locator('[data-comment="sent"]', { hasText: 'note 5521' });
    await outdated.getByText('Outdated').waitFor({ timeout: 30_000 });
    const current = app.page.locator('[data-comment="sent"]', { hasText: 'note 7730' });
    await current.getByText('Current').waitFor();
    t.is(await lineAbove(app, 'note 5521'), '2');
    t.is(await lineAbove(app, 'note 7730'), '1');
    await app.axe(t, 'threads after the edit');
    await shot(app.page.locator('.d2h-file-wrapper', { hasText: 'greet.txt' }), `/tmp/w31-shots/claude-threads-${viewport.width}.png`);
    app.noErrors(t);
  });
}
