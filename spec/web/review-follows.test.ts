import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { GATED } from '../helpers/server.js';
import { eventually } from '../helpers/env.js';
import { worktreeOf } from '../helpers/http-kit.js';
import { detail, history, startRun } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

// Issue 29, part 3, in real Chromium: a sent review comment follows its line. Lines inserted
// above it move it (its thread in the diff sits under its new place) and it
// stays Current; when its own line changes it is Outdated. Screenshots: $SVC_SHOTS/review-follows-*.png.

test.after.always(closeBrowser);

for (const viewport of VIEWPORTS) {
  test(`a comment moves with its line in the Worktree tab, and is outdated when its line changes (${viewport.name})`, async (t) => {
    t.timeout(90_000);
    const app = await openApp(t, { viewport, workflows: { gated: GATED } });
    const { page, server } = app;
    const runId = await startRun(server, { goal: 'look [report:success]', title: 'Followed', workflow: 'gated' });
    await eventually(() => detail(server, runId), (d) => d.phase === 'AtGate');
    const dir = await worktreeOf(server, runId);
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'alpha\nbeta\ngamma\n');
    execFileSync('git', ['add', 'notes.txt'], { cwd: dir });
    const sent = await server.post(`/api/runs/${runId}/reviews`, { comments: [{ path: 'notes.txt', side: 'new', line: 2, body: 'Why beta?' }] });
    t.is(sent.status, 200, JSON.stringify(sent.body));
    // at a gate the review sends the run back to its agent step, which then comes back to the gate
    await eventually(() => history(server, runId), (es) => es.filter((e) => e.type === 'StepStarted' && e.data.node === 'work').length === 2);
    await eventually(() => detail(server, runId), (d) => d.phase === 'AtGate');

    writeFileSync(file, 'intro\nmore intro\nalpha\nbeta\ngamma\n');
    await app.goto(`/runs/${runId}?tab=worktree`);
    const item = page.locator('[data-comment="sent"]', { hasText: 'Why beta?' });
    await item.locator('code', { hasText: 'notes.txt:4 (written on line 2)' }).waitFor();
    t.is(await item.getAttribute('data-outdated'), 'false');
    await item.getByText('Current').waitFor();
    // its thread sits under the line it stands on now (issue 31: comments are in the diff)
    const lineAbove = () => page.locator('tr.review-row', { has: item }).evaluate((row) => {
      let r = row.previousElementSibling;
      while (r?.classList.contains('review-row')) r = r.previousElementSibling;
      return r?.textContent?.replace(/\s+/g, ' ').trim() ?? null;
    });
    t.regex((await lineAbove())!, /^4\s*\+\s*beta$/);
    await app.axe(t, 'a comment followed to its new place');
    await shot(page, `${process.env['SVC_SHOTS']}/review-follows-current-${viewport.width}.png`, { fullPage: true });

    writeFileSync(file, 'intro\nmore intro\nalpha\nBETA\ngamma\n');
    await page.reload();
    await item.getByText('Outdated').waitFor();
    t.is(await item.getAttribute('data-outdated'), 'true');
    t.is(await item.locator('code').innerText(), 'notes.txt:2');
    t.regex((await lineAbove())!, /^2\s*\+\s*more intro$/, 'an outdated comment stays where it was written');
    await app.axe(t, 'a comment outdated');
    app.noErrors(t);
  });
}
