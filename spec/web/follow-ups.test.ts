import test from 'ava';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { eventually } from '../helpers/env.js';
import { detail, startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS, type AppSession } from './browser.js';
import { shot as takeShot } from '../helpers/shots.js';

// Following up an ended run from its page, in real Chromium against the real server (scripted
// harness): the page makes the follow-up and opens it; it works in the first run's worktree; the
// board shows the two runs as one card with two attempts. Screenshots: /tmp/followups-*.png.

test.after.always(closeBrowser);

const shot = (app: AppSession, name: string, w: number) => takeShot(app.page, `/tmp/followups-${name}-${w}.png`, { fullPage: true });

for (const viewport of VIEWPORTS) {
  test(`Follow up from the run page; the board shows one card with two attempts (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport });
    const first = await startRun(app.server, { goal: '[write:first.txt=1]', title: 'Add the first file', workflow: 'linear' });
    await untilStanding(app.server, first, 'Succeeded');
    await app.goto(`/runs/${first}`);
    const form = app.page.getByRole('form', { name: 'Follow up' });
    await form.waitFor();
    t.true(await form.getByRole('button', { name: 'Follow up' }).isDisabled(), 'nothing to send yet');
    await form.getByRole('textbox', { name: 'What next' }).fill('[write:second.txt=2]');
    await app.axe(t, 'an ended run with the follow-up form');
    await shot(app, 'form', viewport.width);
    await form.getByRole('button', { name: 'Follow up' }).click();

    // the page opens the follow-up, which names the run it continues
    await app.page.waitForURL((u) => u.pathname.startsWith('/runs/') && !u.pathname.endsWith(first));
    const next = decodeURIComponent(new URL(app.page.url()).pathname.split('/').pop()!);
    // linked by its title, the id in the tooltip (issue 32: "Follows up r1m8…")
    await app.page.getByText('Follows up Add the first file.').waitFor();
    t.is(await app.page.getByRole('link', { name: 'Add the first file' }).getAttribute('title'), `run ${first}`);
    await untilStanding(app.server, next, 'Succeeded');
    const dir = worktreeDir(app.server.home, first, basename(app.server.repo));
    await eventually(() => existsSync(join(dir, 'second.txt')), (x) => x);
    t.deepEqual((await detail(app.server, first)).continuedBy, [next]);
    await app.page.locator('.run-facts .badge', { hasText: 'Succeeded' }).waitFor({ timeout: 20_000 });
    await app.axe(t, 'the follow-up');
    await shot(app, 'run', viewport.width);

    await app.goto('/');
    const card = app.page.locator(`li.board-row[data-run="${next}"]`);
    await card.waitFor();
    t.is(await card.getAttribute('data-attempts'), '2');
    await card.getByText('2 attempts').waitFor();
    t.is(await app.page.locator(`li.board-row[data-run="${first}"]`).count(), 0, 'the first run is no card of its own');
    t.is(await card.locator('a.title').textContent(), 'Add the first file', 'the card is titled by the first run');
    t.is(await card.getByRole('link', { name: /^Attempt 1: / }).getAttribute('href'), `/runs/${first}`);
    await app.axe(t, 'the board');
    await shot(app, 'board', viewport.width);
    app.noErrors(t);
  });
}
