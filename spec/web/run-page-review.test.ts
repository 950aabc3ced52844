import test from 'ava';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../helpers/env.js';
import { STRICT } from '../helpers/server.js';
import { detail, startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, DESKTOP, openApp, PHONE, VIEWPORTS, type AppSession } from './browser.js';
import { shot as takeShot } from '../helpers/shots.js';

// The run page's defects found in the issue 19 walk, each as a person meets it, in real Chromium
// against the real server with runs on the scripted harness: a gate that explains itself and is
// answered with Approve or Send back; Abort that asks first; Change harness with nothing chosen for
// the person; "Revise the goal" only where the server takes it; Start on a Created run; a diff
// whose every line can be read on a phone. Screenshots go to /tmp/runpage-*.png for a look.

test.after.always(closeBrowser);

/** A gate with a label and a prompt, after an agent step it can send the run back to. */
const REVIEWED = `digraph reviewed {
  start  [kind=start]
  work   [kind=agent, prompt="{{goal}}"]
  review [kind=gate, label="Check the README", prompt="Read README.md in the diff.\\nApprove when it says changed; otherwise send it back with what to fix."]
  done   [kind=exit]
  start -> work -> review -> done
}`;

const shot = (app: AppSession, name: string, w: number) => takeShot(app.page, `/tmp/runpage-${name}-${w}.png`, { fullPage: true });
const fits = (app: AppSession) => app.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const controls = (app: AppSession) => app.page.getByRole('region', { name: 'Controls' });

for (const viewport of VIEWPORTS) {
  test(`a gate shows its label and prompt; Send back gives the agent the note, Approve passes it (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport, workflows: { reviewed: REVIEWED } });
    const runId = await startRun(app.server, { goal: '[write:README.md=changed]', title: 'Reviewed run', workflow: 'reviewed' });
    await untilStanding(app.server, runId, 'Paused');
    await app.goto(`/runs/${runId}`);
    const gate = app.page.getByRole('region', { name: 'Check the README' });
    await gate.getByText('Approve when it says changed; otherwise send it back with what to fix.').waitFor();
    await gate.getByText('Read README.md in the diff.').waitFor();
    t.deepEqual(await gate.getByRole('button').allTextContents(), ['Approve', 'Send back']);
    t.is(await app.page.getByRole('button', { name: 'Resume', exact: true }).count(), 0, 'no Resume at a gate: Approve is it');
    t.true(await gate.getByRole('button', { name: 'Send back' }).isDisabled(), 'Send back needs a note');
    // the route back (work -> review) comes back to this gate: the panel says so (issue 29)
    await gate.getByText('Send back gives the note to the agent at work, which runs next. The run then comes back to this gate for you to look again.').waitFor();
    await app.page.getByText('Revise the goal').waitFor();
    await app.axe(t, 'at a gate');
    t.true(await fits(app));
    await shot(app, 'gate', viewport.width);

    // The note opens the agent's next turn (the scripted agent acts on what its prompt says).
    await gate.getByRole('textbox', { name: 'Note for the agent' }).fill('[write:note.txt=fixed at the gate]');
    await gate.getByRole('button', { name: 'Send back' }).click();
    const dir = (await app.server.get(`/api/runs/${runId}/worktree`)).body.folders[0].directory;
    await eventually(() => existsSync(join(dir, 'note.txt')), (x) => x);
    t.is(readFileSync(join(dir, 'note.txt'), 'utf8'), 'fixed at the gate');
    await app.page.getByRole('list', { name: 'Thread' }).locator('li[data-kind="message"]', { hasText: 'fixed at the gate' }).getByText('Reason: sent back at a gate').waitFor();
    // back at the gate after the agent's turn: Approve passes it and the run succeeds
    await untilStanding(app.server, runId, 'Paused');
    await gate.getByRole('button', { name: 'Approve' }).click();
    await app.page.locator('.run-facts .badge', { hasText: 'Succeeded' }).waitFor({ timeout: 20_000 });
    t.is(await gate.count(), 0, 'the gate panel goes with the gate');
    // an ended run takes no revision: the page no longer offers one (the server says canReviseGoal)
    t.false((await detail(app.server, runId)).canReviseGoal);
    t.is(await app.page.getByText('Revise the goal').count(), 0);
    await app.axe(t, 'ended');
    app.noErrors(t);
  });
}

/** A gate whose route leads on to an agent step (a workflow's own way back, like `stuck -> implement`). */
const FIXED = `digraph fixed {
  start  [kind=start]
  work   [kind=agent, prompt="{{goal}}"]
  review [kind=gate]
  fix    [kind=agent, prompt="fix what the person says"]
  done   [kind=exit]
  start -> work -> review -> fix -> done
}`;

test('Send back at a gate whose route leads to an agent: the note opens that step (Resume)', async (t) => {
  const app = await openApp(t, { viewport: DESKTOP, workflows: { fixed: FIXED } });
  const runId = await startRun(app.server, { goal: 'first pass', title: 'Fixed run', workflow: 'fixed' });
  await untilStanding(app.server, runId, 'Paused');
  await app.goto(`/runs/${runId}`);
  const gate = app.page.getByRole('region', { name: 'Gate review' });
  // issue 29: fix leads on to done, not back to the gate; a person who sends work back expects to
  // look again, so the gate says plainly that this route will not come back
  await gate.getByText('Send back gives the note to the agent at fix, which runs next. The run then goes on without coming back to this gate: approve only what you have seen.').waitFor();
  t.is(await gate.locator('[data-returns="false"]').count(), 1);
  await gate.getByRole('textbox', { name: 'Note for the agent' }).fill('[write:fixed.txt=as asked]');
  await gate.getByRole('button', { name: 'Send back' }).click();
  await app.page.getByRole('status').filter({ hasText: 'Sent back to fix with your note.' }).waitFor();
  await untilStanding(app.server, runId, 'Succeeded');
  const dir = (await app.server.get(`/api/runs/${runId}/worktree`)).body.folders[0].directory;
  t.is(readFileSync(join(dir, 'fixed.txt'), 'utf8'), 'as asked');
  const steps = (await app.server.get(`/api/runs/${runId}/history?pageSize=200`)).body.events.filter((e: any) => e.type === 'StepStarted').map((e: any) => e.data.node);
  t.deepEqual(steps, ['work', 'review', 'fix'], 'the gate passed on to fix, no jump');
  app.noErrors(t);
});

for (const viewport of VIEWPORTS) {
  test(`Abort asks first: the safe answer has focus, Escape keeps the run, focus returns to Abort (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport });
    const runId = await startRun(app.server, { goal: '[silent]', title: 'Long run', workflow: 'linear' });
    await untilStanding(app.server, runId, 'Running');
    await app.goto(`/runs/${runId}`);
    const abort = controls(app).getByRole('button', { name: 'Abort', exact: true });
    await abort.click();
    const confirm = app.page.getByRole('group', { name: 'Confirm: Abort' });
    await confirm.getByText(/^Abort this run\? It ends for good/).waitFor();
    const keep = confirm.getByRole('button', { name: 'Keep it going' });
    t.true(await keep.evaluate((el) => el === document.activeElement), 'the safe answer has the focus');
    await app.axe(t, 'abort confirmation');
    await shot(app, 'abort-confirm', viewport.width);
    await app.page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    t.true(await abort.evaluate((el) => el === document.activeElement), 'focus is back on Abort');
    t.is((await detail(app.server, runId)).standing, 'Running', 'Escape kept the run');
    await abort.click();
    await keep.click();
    t.true(await abort.evaluate((el) => el === document.activeElement));
    t.is((await detail(app.server, runId)).standing, 'Running');
    await abort.click();
    await confirm.getByRole('button', { name: 'Abort the run' }).click();
    await app.page.locator('.run-facts .badge', { hasText: 'Aborted' }).waitFor({ timeout: 20_000 });
    t.is((await detail(app.server, runId)).standing, 'Aborted');
    app.noErrors(t);
  });
}

test('Change harness on a running run preselects nothing: the person picks, then confirms', async (t) => {
  const app = await openApp(t, { viewport: DESKTOP });
  const runId = await startRun(app.server, { goal: '[until:go.txt]', title: 'Running run', workflow: 'linear', harness: 'claude' });
  await untilStanding(app.server, runId, 'Running');
  await app.goto(`/runs/${runId}`);
  const picker = controls(app).getByRole('combobox', { name: 'Harness' });
  await app.page.waitForFunction(() => [...document.querySelectorAll('.run-controls select option')].some((o) => (o as HTMLOptionElement).value === 'codex'));
  t.deepEqual(await picker.locator('option').allTextContents(), ['choose a harness', 'codex', 'opencode'], 'the harness in flight is no choice');
  t.is(await picker.inputValue(), '', 'nothing chosen');
  const change = controls(app).getByRole('button', { name: /^Change harness/ });
  t.true(await change.isDisabled(), 'one click cannot switch it');
  await picker.selectOption('opencode');
  t.is(await change.textContent(), 'Change harness to opencode');
  t.is((await detail(app.server, runId)).currentStepSettings.harness.value, 'claude', 'picking alone changes nothing');
  await change.click();
  await controls(app).getByRole('status').filter({ hasText: 'Change harness applied.' }).waitFor();
  await eventually(() => detail(app.server, runId), (d) => d.currentStepSettings?.harness.value === 'opencode');
  await app.page.waitForFunction(() => (document.querySelector('.run-controls select') as HTMLSelectElement | null)?.value === '');
  await app.axe(t);
  app.noErrors(t);
});

test('a Created run has Start, which queues it; an ended run has no goal form', async (t) => {
  const app = await openApp(t, { viewport: PHONE, workflows: { strict: STRICT } });
  const runId = await startRun(app.server, { goal: '[fail]', title: 'Not started', workflow: 'strict', start: false });
  await app.goto(`/runs/${runId}`);
  await app.page.locator('.run-facts .badge', { hasText: 'Created' }).waitFor();
  t.deepEqual(await controls(app).locator('.row').first().getByRole('button').allTextContents(), ['Start', 'Abort']);
  // Restart is rare: it sits in the run's More menu, which the keyboard opens and walks
  const more = app.page.getByRole('region', { name: 'Run actions' }).getByRole('button', { name: 'More' });
  await more.focus();
  await app.page.keyboard.press('ArrowDown');
  const items = app.page.getByRole('menu', { name: 'More' }).getByRole('menuitem');
  t.deepEqual(await items.allTextContents(), ['Export', 'Restart']);
  t.true(await items.first().evaluate((el) => el === document.activeElement), 'the first item has the focus');
  await app.page.keyboard.press('ArrowDown');
  t.true(await items.nth(1).evaluate((el) => el === document.activeElement));
  await app.page.keyboard.press('Escape');
  await app.page.getByRole('menu', { name: 'More' }).waitFor({ state: 'detached' });
  t.true(await more.evaluate((el) => el === document.activeElement), 'Escape closes it, focus back on More');
  await app.axe(t, 'created');
  await shot(app, 'created', PHONE.width);
  await controls(app).getByRole('button', { name: 'Start', exact: true }).click();
  await controls(app).getByRole('status').filter({ hasText: 'Resume applied.' }).waitFor();
  await app.page.locator('.run-facts .badge', { hasText: 'Failed' }).waitFor({ timeout: 20_000 });
  t.is(await app.page.getByText('Revise the goal').count(), 0, 'the server would refuse a revision now');
  app.noErrors(t);
});

test('on a phone every line of the diff can be read: a long line wraps inside its box', async (t) => {
  const app = await openApp(t, { viewport: PHONE });
  const runId = await startRun(app.server, { goal: '[write:README.md=changed]', title: 'Diff run', workflow: 'linear' });
  await untilStanding(app.server, runId, 'Succeeded');
  const dir = (await app.server.get(`/api/runs/${runId}/worktree`)).body.folders[0].directory;
  const long = `export const line = "${'word '.repeat(40)}END-OF-LINE";`;
  writeFileSync(join(dir, 'wide.ts'), `${long}\n`);
  await app.goto(`/runs/${runId}?tab=worktree`);
  const file = app.page.locator('.d2h-file-wrapper', { hasText: 'wide.ts' });
  const end = file.getByText('END-OF-LINE', { exact: false });
  await end.waitFor();
  t.true(await fits(app), 'the page itself does not scroll sideways');
  const box = (await file.boundingBox())!;
  t.true(box.x >= 0 && box.x + box.width <= PHONE.width + 1, `the file's box is inside the window (${box.x}, ${box.width})`);
  await shot(app, 'diff', PHONE.width);
  // every character of the long line is drawn inside the file's box (the line wraps), none is cut off
  const rects = await file.evaluate((root) => {
    const out: { left: number; right: number }[] = [];
    const walk = document.createTreeWalker(root.querySelector('.d2h-file-diff')!, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const r = document.createRange();
      r.selectNodeContents(n);
      for (const q of r.getClientRects()) if (q.width > 0) out.push({ left: q.left, right: q.right });
    }
    return out;
  });
  const outside = rects.filter((r) => r.left < box.x - 1 || r.right > box.x + box.width + 1);
  t.true(rects.length > 0);
  t.deepEqual(outside, [], 'no text is drawn outside the box');
  t.true(await fits(app));
  await app.axe(t, 'diff on a phone');
  app.noErrors(t);
});
