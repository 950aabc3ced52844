import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureRepository } from '../fixtures/github/fixture.js';
import { startGitHubServer } from '../fixtures/github/server.js';
import { GATED, STRICT, testServer } from '../helpers/server.js';
import { startRun, untilStanding } from '../helpers/steer.js';
import { eventually } from '../helpers/env.js';
import { closeBrowser, DESKTOP, openApp, PHONE, VIEWPORTS, type AppSession } from './browser.js';
import { SHIP, WEB, git, githubOrigin } from '../helpers/code-host-origin.js';

// The run page in real Chromium against a real server, with runs moving on the scripted harness
// and the page following the real push stream: a question answered from the page, the thread
// growing live, the workflow graph with its current step, the diff of the run's work (run text
// shown as text, diff2html's output escaped), a control sent with a stale position, paging back,
// the ready-harness picker, the actions on a run, and the pull request panel against the GitHub
// fixture server. axe at both sizes.

test.after.always(closeBrowser);

const EVIL_HTML = '<script>document.title=1</script><img src=x onerror="document.title=2">';
const GOAL = '[ask:Which colour?|red|blue] [write:README.md=changed]';

const tab = (app: AppSession, name: string) => app.page.getByRole('tab', { name, exact: true }).click();
const fits = (app: AppSession) => app.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

for (const viewport of VIEWPORTS) {
  test(`a question answered from the page moves the run, live; graph, diff and thread follow (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport, workflows: { gated: GATED } });
    const runId = await startRun(app.server, { goal: GOAL, title: 'Asking run', workflow: 'gated' });
    await app.goto(`/runs/${runId}`);
    await app.page.getByRole('heading', { level: 1, name: 'Asking run' }).waitFor();
    const question = app.page.getByRole('region', { name: 'The agent asks' });
    await question.getByText('Which colour?').waitFor({ timeout: 20_000 });
    await app.page.locator('.run-facts .badge', { hasText: 'Question' }).waitFor();
    await app.axe(t, 'with a question');
    t.true(await fits(app), 'the page fits the window');

    await question.getByRole('button', { name: 'blue' }).click();
    // The answer reaches the agent, which writes its files and ends the step: the run stops at the gate.
    await app.page.locator('.run-facts .badge', { hasText: 'Paused' }).waitFor({ timeout: 20_000 });
    t.is(await question.count(), 0, 'the question is gone');
    const thread = app.page.getByRole('list', { name: 'Thread' });
    await thread.locator('li[data-kind="answer"]', { hasText: 'blue' }).waitFor();
    await thread.locator('li[data-kind="agent"]', { hasText: 'done with' }).waitFor();
    // the tabs sit above their panel, which takes the page's whole width
    const tabsBox = (await app.page.getByRole('tablist').boundingBox())!;
    const panelBox = (await app.page.getByRole('tabpanel').boundingBox())!;
    const mainBox = (await app.page.getByRole('main').boundingBox())!;
    t.true(panelBox.y >= tabsBox.y + tabsBox.height - 1, 'the panel is below the tabs');
    t.true(panelBox.width >= mainBox.width * 0.8, `the panel is as wide as the page (${panelBox.width} of ${mainBox.width})`);
    t.is((await untilStanding(app.server, runId, 'Paused')).currentStep, 'review');

    // Something said elsewhere shows up without a reload.
    await app.server.post(`/api/runs/${runId}/messages`, { text: 'from elsewhere <b>bold?</b>', delivery: 'Hold', reason: 'the review waits' });
    await thread.locator('li[data-kind="message"]', { hasText: 'from elsewhere <b>bold?</b>' }).getByText('Reason: the review waits').waitFor();
    t.is(await thread.locator('b').count(), 0);

    await tab(app, 'Workflow');
    const current = app.page.locator('.wf-graph svg g.node.current');
    await current.waitFor();
    t.is(await current.getAttribute('data-node'), 'review');
    t.is(await app.page.locator('.wf-graph svg g.node').count(), 4);
    // drawn at its own size at most (Graphviz gives it in pt), never blown up to the page's width
    const natural = Number.parseFloat(await app.page.locator('.wf-graph svg').getAttribute('width') ?? 'NaN') * 4 / 3;
    const drawn = (await app.page.locator('.wf-graph svg').boundingBox())!;
    t.true(drawn.width <= natural + 1, `the graph is drawn ${drawn.width} px wide, its own width being ${natural} px`);
    t.true(drawn.width <= viewport.width, 'and never wider than the window');
    t.regex(await app.page.locator('.wf-graph svg').getAttribute('aria-label') ?? '', /now at step review/);
    await app.axe(t, 'workflow tab');

    // A file the agent might have written: HTML that must stay text in the diff.
    const folder = (await app.server.get(`/api/runs/${runId}/worktree`)).body.folders[0];
    writeFileSync(join(folder.directory, 'evil.html'), `${EVIL_HTML}\n`);
    writeFileSync(join(folder.directory, 'app.ts'), '// a comment\nexport const answer: number = 42; /* more */\nconst s = `text ${answer}`;\n');
    await tab(app, 'Worktree');
    const diff = app.page.locator('.diff');
    await diff.locator('.d2h-file-name', { hasText: 'evil.html' }).first().waitFor();
    await diff.locator('.d2h-file-name', { hasText: 'README.md' }).first().waitFor();
    t.true((await diff.textContent() ?? '').includes(EVIL_HTML), 'the file content is shown as text');
    t.is(await diff.locator('img, script').count(), 0, 'nothing in the diff became an element');
    t.true(await diff.locator('.d2h-code-line-ctn.hljs .hljs-tag').count() > 0, 'the HTML file is syntax coloured');
    t.not(await app.page.title(), '1');
    t.not(await app.page.title(), '2');
    await app.page.getByText('untracked').first().waitFor();
    await app.axe(t, 'worktree tab');
    t.true(await fits(app), 'the worktree tab fits the window');

    await tab(app, 'Pull request');
    // no pull request yet: the tab offers to ship the run instead (spec/web/ship.test.ts)
    await app.page.getByRole('form', { name: 'Create pull request' }).waitFor();
    await app.axe(t, 'pull request tab');
    t.true(await fits(app), 'the pull request tab fits the window');

    // Approve at the gate (the control Resume) passes it.
    await tab(app, 'Thread');
    await app.page.getByRole('region', { name: 'Gate review' }).getByRole('button', { name: 'Approve', exact: true }).click();
    await app.page.locator('.run-facts .badge', { hasText: 'Succeeded' }).waitFor({ timeout: 20_000 });
    await app.page.getByRole('status').filter({ hasText: 'Approved: the run goes on.' }).waitFor();
    app.noErrors(t);
  });
}

test('a control sent with a stale position says Stale, changes nothing, and refreshes', async (t) => {
  const app = await openApp(t, { viewport: DESKTOP, workflows: { gated: GATED } });
  const runId = await startRun(app.server, { goal: '[write:a.txt=a]', title: 'Gated run', workflow: 'gated' });
  await untilStanding(app.server, runId, 'Paused');
  // The page's push stream is cut (as a dropped network would), so the page keeps the position it
  // read while the run moves on underneath it.
  await app.page.route('**/api/events?*', (r) => r.fulfill({ status: 200, contentType: 'text/event-stream', body: 'retry: 60000\n\n' }));
  await app.goto(`/runs/${runId}`);
  const controls = app.page.getByRole('region', { name: 'Controls' });
  await controls.getByRole('button', { name: 'Abort' }).waitFor();
  // Jump offers the steps of the run's own workflow (all but start).
  const steps = controls.getByRole('combobox', { name: 'Step' });
  await app.page.waitForFunction(() => document.querySelectorAll('.run-controls select option').length > 0);
  t.deepEqual(await steps.locator('option').allTextContents(), ['work', 'review', 'done']);
  t.deepEqual(await controls.getByRole('button').allTextContents(), ['Abort', 'Jump'], 'at a gate, Resume is the gate panel\'s Approve; Restart is in the More menu');
  const before = (await app.server.get(`/api/runs/${runId}/detail`)).body;
  const moved = await app.server.post(`/api/runs/${runId}/control`, { position: before.position, action: 'Jump', node: 'review' });
  t.is(moved.body.outcome, 'Applied');
  await untilStanding(app.server, runId, 'Paused');

  const abort = async () => {
    await controls.getByRole('button', { name: 'Abort', exact: true }).click();
    await controls.getByRole('button', { name: 'Abort the run' }).click();
  };
  await abort();
  await controls.getByRole('alert').filter({ hasText: /^Stale/ }).waitFor();
  const after = (await app.server.get(`/api/runs/${runId}/detail`)).body;
  t.is(after.standing, 'Paused', 'the stale Abort changed nothing');
  // The page now holds the run as it is: the same control goes through.
  await abort();
  await controls.getByRole('status').filter({ hasText: 'Abort applied.' }).waitFor();
  await app.page.locator('.run-facts .badge', { hasText: 'Aborted' }).waitFor();
  t.is((await app.server.get(`/api/runs/${runId}/detail`)).body.standing, 'Aborted');
  await app.axe(t);
});

test('paging back through the thread and the history', async (t) => {
  const app = await openApp(t, { viewport: DESKTOP });
  const runId = await startRun(app.server, { goal: 'later', title: 'Quiet run', workflow: 'linear', start: false });
  for (let i = 1; i <= 60; i++) await app.server.post(`/api/runs/${runId}/messages`, { text: `note ${i}`, delivery: 'Hold' });
  await app.goto(`/runs/${runId}`);
  const thread = app.page.getByRole('list', { name: 'Thread' });
  await thread.getByText('note 60', { exact: true }).waitFor();
  t.is(await thread.locator('li').count(), 50);
  await app.page.getByRole('button', { name: 'Show earlier' }).click();
  await thread.getByText('later', { exact: true }).waitFor();
  t.is(await thread.locator('li').count(), 61, 'every row once: the goal and 60 notes');
  t.is(await app.page.getByRole('button', { name: 'Show earlier' }).count(), 0);
  await tab(app, 'History');
  const history = app.page.getByRole('list', { name: 'History' });
  await history.getByText(/sent a message for the next turn: note 60/).waitFor();
  t.is(await history.locator('li').count(), 50, 'the newest page of events');
  await app.page.getByRole('button', { name: 'Show earlier' }).click();
  await history.getByText(/created the run “Quiet run”/).waitFor();
  t.is(await history.locator('li').count(), 61);
  t.regex(await history.locator('li').last().textContent() ?? '', /sent a message for the next turn: note 60\.$/);
  app.noErrors(t);
});

test('a failed run: another ready harness from the picker, then export, resolve, archive and restart', async (t) => {
  const app = await openApp(t, { viewport: DESKTOP, workflows: { strict: STRICT } });
  const runId = await startRun(app.server, { goal: '[fail]', title: 'Failing run', workflow: 'strict', harness: 'claude' });
  await untilStanding(app.server, runId, 'Failed');
  await app.goto(`/runs/${runId}`);
  const controls = app.page.getByRole('region', { name: 'Controls' });
  const picker = controls.getByRole('combobox', { name: 'Harness' });
  await picker.waitFor();
  await app.page.waitForFunction(() => [...document.querySelectorAll('select option')].some((o) => (o as HTMLOptionElement).value === 'codex'));
  t.deepEqual(await picker.locator('option').allTextContents(), ['choose a harness', 'claude', 'codex', 'opencode'], 'every ready harness, none chosen');
  await picker.selectOption('opencode');
  await controls.getByRole('button', { name: 'Change harness' }).click();
  await controls.getByRole('status').filter({ hasText: 'Change harness applied.' }).waitFor();
  await app.page.getByRole('list', { name: 'Thread' }).getByText('harness changed to opencode').waitFor();
  await untilStanding(app.server, runId, 'Failed');
  await app.page.locator('.run-facts .badge', { hasText: 'Failed' }).waitFor();

  const actions = app.page.getByRole('region', { name: 'Run actions' });
  const download = app.page.waitForEvent('download');
  // the rare actions sit in a menu (issue 31): a button that says whether it is open
  const more = actions.getByRole('button', { name: 'More' });
  t.is(await more.getAttribute('aria-expanded'), 'false');
  await more.click();
  t.is(await more.getAttribute('aria-expanded'), 'true');
  t.deepEqual(await actions.getByRole('menu', { name: 'More' }).getByRole('menuitem').allTextContents(), ['Export', 'Restart']);
  await app.axe(t, 'the More menu open');
  await actions.getByRole('menuitem', { name: 'Export' }).click();
  t.is((await download).suggestedFilename(), `${runId}.jsonl`);
  await actions.getByRole('button', { name: 'Resolve' }).click();
  await app.page.locator('.run-facts .badge', { hasText: 'resolved' }).waitFor();
  await actions.getByRole('button', { name: 'Archive', exact: true }).click();
  // Archive asks first, saying what it keeps (spec/web/archive-keeps.test.ts shows it whole)
  const question = actions.getByRole('group', { name: 'Confirm: Archive' });
  await question.getByText(/will be kept on branch svc\/\S+ and restored if you unarchive/).waitFor();
  await question.getByRole('button', { name: 'Archive', exact: true }).click();
  await app.page.locator('.run-facts .badge', { hasText: 'archived' }).waitFor();
  await actions.getByRole('button', { name: 'Unarchive' }).waitFor();
  t.true((await app.server.get(`/api/runs/${runId}/detail`)).body.archived);
  await app.axe(t);
  // Restart makes a new run; the page points to it.
  await actions.getByRole('button', { name: 'More' }).click();
  await actions.getByRole('menuitem', { name: 'Restart' }).click();
  // first the record (the detail names the new run), then the page showing it from its stream: a
  // slow restart on a loaded machine and a page that misses the frame are told apart
  await eventually(async () => (await app.server.get(`/api/runs/${runId}/detail`)).body.restartedAs, (v) => typeof v === 'string', 90_000);
  const link = app.page.getByText('Restarted as').getByRole('link');
  await link.waitFor();
  // linked by its title, the id in its tooltip (issue 32)
  const next = (await link.getAttribute('title'))?.replace(/^run /, '');
  t.truthy(next);
  t.not(next, runId);
  await link.click();
  await app.page.waitForURL((u) => u.pathname === `/runs/${next}`);
  await app.page.getByRole('heading', { level: 1, name: 'Failing run' }).waitFor();
  app.noErrors(t);
});


test('the pull request panel: checks, reviews, requested reviewers, unresolved threads, merge state; secure work', async (t) => {
  const { bare, work } = githubOrigin();
  const repo = fixtureRepository('acme', 'app');
  const gh = await startGitHubServer({ webHost: WEB, tokens: ['tok'], repositories: [repo] });
  t.teardown(() => gh.close());
  const server = await testServer({ repo: work, workflows: { ship: SHIP } });
  t.teardown(() => server.close());
  await server.send('PUT', '/api/settings', JSON.stringify({ _tag: 'CodeHost', graphqlUrl: gh.graphqlUrl, webHost: WEB }));
  await server.send('PUT', '/api/settings', JSON.stringify({ _tag: 'CodeHostToken', token: 'tok' }));
  const runId = await startRun(server, { goal: '[write:feature.txt=done]', workflow: 'ship', title: 'Ship it' });
  // a run that pushes and opens a pull request: a whole run with the machine's two cores busy once took more than 20 s
  const done = await untilStanding(server, runId, 'Succeeded', 60_000);
  const i = repo.pullRequests.findIndex((p) => p.number === done.pullRequest.number);
  repo.pullRequests[i] = {
    ...repo.pullRequests[i]!,
    mergeStateStatus: 'BLOCKED', reviewDecision: 'CHANGES_REQUESTED',
    contexts: [
      { __typename: 'CheckRun', name: 'build', status: 'COMPLETED', conclusion: 'SUCCESS', required: true },
      { __typename: 'CheckRun', name: 'lint', status: 'IN_PROGRESS', conclusion: null, required: false },
      { __typename: 'StatusContext', context: 'ci/e2e', state: 'FAILURE', required: true },
    ],
    latestReviews: [{ author: 'alice', state: 'CHANGES_REQUESTED' }],
    reviewRequests: [{ __typename: 'User', login: 'bob' }, { __typename: 'Team', slug: 'core', name: 'Core' }],
    reviewThreads: [
      { isResolved: false, isOutdated: false, comments: [{ author: 'alice', path: 'feature.txt', body: 'Please <img src=x onerror="document.title=3"> fix', url: `https://${WEB}/c/1` }] },
      { isResolved: true, isOutdated: false, comments: [{ author: 'carol', path: 'README.md', body: 'all settled', url: `https://${WEB}/c/2` }] },
    ],
  };

  const app = await openApp(t, { viewport: DESKTOP, server });
  await app.goto(`/runs/${runId}?tab=pr`);
  const panel = app.page.getByRole('tabpanel', { name: 'Pull request' });
  await panel.getByRole('link', { name: `acme/app#${done.pullRequest.number}` }).waitFor();
  // GitHub's terms put in words, the merge state's own term kept beside them
  await panel.getByText('blocked by a required check or review (BLOCKED · MERGEABLE)', { exact: true }).waitFor();
  t.is(await panel.locator('dd').nth(2).innerText(), 'changes requested', 'the review decision');
  const rows = await panel.getByRole('table').locator('tbody tr').allInnerTexts();
  t.deepEqual(rows.map((r) => r.replace(/\s+/g, ' ').trim()), [
    'build required Passed (SUCCESS)', 'lint optional Pending (IN_PROGRESS)', 'ci/e2e required Failing (FAILURE)',
  ]);
  await panel.getByText('alice: changes requested', { exact: true }).waitFor();
  t.deepEqual((await panel.getByRole('region', { name: 'Requested reviewers' }).getByRole('listitem').allInnerTexts()), ['bob (person)', 'core (team)']);
  await panel.getByRole('heading', { name: 'Unresolved threads (1)' }).waitFor();
  await panel.getByText('Please <img src=x onerror="document.title=3"> fix').waitFor();
  t.is(await panel.getByText('all settled').count(), 0, 'resolved threads are left out');
  t.is(await panel.locator('img').count(), 0);
  await app.axe(t, 'pull request tab');

  const dir = (await server.get(`/api/runs/${runId}/worktree`)).body.folders[0].directory;
  writeFileSync(join(dir, 'later.txt'), 'more work');
  await app.page.getByRole('region', { name: 'Run actions' }).getByRole('button', { name: 'Secure work' }).click();
  await app.page.getByRole('status').filter({ hasText: /^Work secured\. .*committed [0-9a-f]{10}, pushed to/ }).waitFor();
  t.is(git(bare, 'show', `svc/${runId}:later.txt`), 'more work');
  t.not(await app.page.title(), '3');
  app.noErrors(t);
});

test('messages sent now or held, a revised goal, the log live, tabs by keyboard (phone)', async (t) => {
  const app = await openApp(t, { viewport: PHONE });
  const runId = await startRun(app.server, { goal: '[until:go.txt] [write:out.txt=x]', title: 'Busy run', workflow: 'linear' });
  await untilStanding(app.server, runId, 'Running');
  await app.goto(`/runs/${runId}`);
  const box = app.page.getByRole('form', { name: 'Message the agent' });
  await box.getByRole('textbox', { name: 'Message' }).fill('now please');
  await box.getByRole('button', { name: 'Send now' }).click();
  await box.getByRole('status').filter({ hasText: 'Message delivered.' }).waitFor();
  await box.getByRole('textbox', { name: 'Message' }).fill('and later');
  await box.getByRole('button', { name: 'Hold for next turn' }).click();
  await box.getByRole('status').filter({ hasText: /^Message held for the next turn/ }).waitFor();
  const dir = (await app.server.get(`/api/runs/${runId}/worktree`)).body.folders[0].directory;
  t.is(readFileSync(join(dir, 'messages.txt'), 'utf8'), 'now please\n', 'only the Resume message reached the turn in flight');

  await app.page.getByText('Revise the goal').click();
  await app.page.getByRole('textbox', { name: 'Goal' }).fill('[until:go.txt] [write:out.txt=y] and be quick');
  await app.page.getByRole('button', { name: 'Save goal' }).click();
  await app.page.getByRole('status').filter({ hasText: 'Goal revised.' }).waitFor();
  await app.page.locator('p.goal', { hasText: 'and be quick' }).waitFor();
  const thread = app.page.getByRole('list', { name: 'Thread' });
  await thread.locator('li[data-kind="goal-revised"]', { hasText: 'and be quick' }).waitFor();
  await thread.locator('li[data-kind="message"]', { hasText: 'and later' }).waitFor();

  const first = app.page.getByRole('tab', { name: 'Thread' });
  await first.focus();
  await app.page.keyboard.press('ArrowRight');
  const logTab = app.page.getByRole('tab', { name: 'Log' });
  t.is(await logTab.getAttribute('aria-selected'), 'true');
  t.true(await logTab.evaluate((el) => el === document.activeElement));
  t.regex(app.page.url(), /\?tab=log$/);
  const log = app.page.getByRole('list', { name: 'Log' });
  await log.getByText(/turn on /).first().waitFor();
  writeFileSync(join(dir, 'go.txt'), '');
  await log.getByText(/wrote out\.txt/).first().waitFor({ timeout: 20_000 });
  await app.page.keyboard.press('End');
  t.is(await app.page.getByRole('tab', { name: 'Pull request' }).getAttribute('aria-selected'), 'true');
  await app.axe(t);
  t.true(await fits(app));
  app.noErrors(t);
});
