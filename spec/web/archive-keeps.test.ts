import test from 'ava';
import { existsSync } from 'node:fs';
import { gitRepo } from '../helpers/env.js';
import { untilEvents, worktreeOf } from '../helpers/http-kit.js';
import { testServer } from '../helpers/server.js';
import { startRun, untilStanding } from '../helpers/steer.js';
import { leaveWork, WORK_REPO, workState } from '../helpers/work-state.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

// Archive asks first and says what it keeps (issue 32): in real Chromium at both sizes and both
// themes, the question names the uncommitted changes, the branch, and that Unarchive restores
// them; after Archive and Unarchive from the page the folder is as it was, byte for byte.
// Screenshots: /tmp/shots/archive-*.png.

test.after.always(closeBrowser);

for (const viewport of VIEWPORTS) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test.serial(`Archive says what it keeps before a person confirms; Unarchive brings the work back (${viewport.name}, ${colorScheme})`, async (t) => {
      const server = await testServer({ repo: gitRepo(WORK_REPO) });
      t.teardown(() => server.close());
      const app = await openApp(t, { viewport, colorScheme, server });
      const { page } = app;
      const runId = await startRun(server, { goal: '[write:agent.txt=agent][report:success]', title: 'Leaves work behind', workflow: 'linear' });
      await untilStanding(server, runId, 'Succeeded');
      const dir = await worktreeOf(server, runId);
      leaveWork(dir, colorScheme);
      const before = workState(dir);

      await app.goto(`/runs/${runId}`);
      const actions = page.getByRole('region', { name: 'Run actions' });
      await actions.getByRole('button', { name: 'Archive', exact: true }).click();
      const question = actions.getByRole('group', { name: 'Confirm: Archive' });
      const said = `Archive this run? Its worktree is removed. 8 uncommitted changes (2 staged, 2 unstaged, 5 untracked) will be kept on branch svc/${runId} and restored if you unarchive; 1 ignored path (.gitignore) will not be kept.`;
      await question.getByText(said).waitFor();
      t.true(await question.getByRole('button', { name: "Don't archive" }).evaluate((el) => el === document.activeElement), 'the safe answer has the focus');
      t.false((await server.get(`/api/runs/${runId}/detail`)).body.archived, 'nothing happens before the person confirms');
      t.true(existsSync(dir));
      await app.axe(t, 'the Archive question');
      await shot(page, `/tmp/shots/archive-question-${viewport.width}-${colorScheme}.png`, { fullPage: false });
      // the question is inside the screen on a phone too
      const box = await question.boundingBox();
      t.true(box!.x >= 0 && box!.x + box!.width <= viewport.width, 'the question fits the screen');

      await question.getByRole('button', { name: 'Archive', exact: true }).click();
      await actions.getByRole('status').getByText(`Archived. 8 uncommitted changes (2 staged, 2 unstaged, 5 untracked) will be kept on branch svc/${runId}`, { exact: false }).waitFor();
      await untilEvents(server, runId, 'WorktreesRemoved');
      t.false(existsSync(dir));
      await actions.getByRole('button', { name: 'Unarchive' }).click();
      await actions.getByRole('status').getByText('Back in the list. Unarchiving makes its worktree again and restores 8 uncommitted changes kept when it was archived.').waitFor();
      await untilEvents(server, runId, 'WorktreesRestored');
      t.deepEqual(workState(dir), before);
      await page.getByRole('list', { name: 'Thread' }).getByText(/before removing the worktree, kept 8 uncommitted changes of folder/).waitFor();
      await app.axe(t, 'after Unarchive');
      await shot(page, `/tmp/shots/archive-restored-${viewport.width}-${colorScheme}.png`, { fullPage: false });
      app.noErrors(t);
    });
  }
}
