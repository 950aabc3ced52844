import test from 'ava';
import { fixtureRepository } from '../fixtures/github/fixture.js';
import { startGitHubServer } from '../fixtures/github/server.js';
import { WEB, git, githubOrigin } from '../helpers/code-host-origin.js';
import { eventually } from '../helpers/env.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { history, startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS, type AppSession } from './browser.js';
import { shot as takeShot } from '../helpers/shots.js';

// Shipping from the run page in real Chromium: the PR tab offers "Create pull request" with the
// title and body drawn from the run; creating it pushes the branch to a local bare origin and opens
// the pull request on the GraphQL test server built from GitHub's schema; the tab then shows it.
// Merge locally's refusal is shown verbatim. Screenshots: /tmp/shots/ship-*.png.

test.after.always(closeBrowser);

const shot = (app: AppSession, name: string, w: number) => takeShot(app.page, `/tmp/shots/ship-${name}-${w}.png`, { fullPage: true });

const setting = async (s: TestServer, change: Record<string, unknown>) => {
  const r = await s.send('PUT', '/api/settings', JSON.stringify(change));
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
};

// one origin (its URL is mapped onto the bare repository in the shared HOME), code host and server
const shared = (async () => {
  const { bare, work } = githubOrigin();
  const gh = await startGitHubServer({ webHost: WEB, tokens: ['tok'], repositories: [fixtureRepository('acme', 'app')] });
  const server = await testServer({ repo: work });
  await setting(server, { _tag: 'CodeHost', graphqlUrl: gh.graphqlUrl, webHost: WEB });
  await setting(server, { _tag: 'CodeHostToken', token: 'tok' });
  return { bare, work, gh, server };
})();
test.after.always(async () => {
  const { gh, server } = await shared;
  await server.close();
  await gh.close();
});

for (const viewport of VIEWPORTS) {
  // serial: the tests share the project's checkout, whose main they merge into
  test.serial(`Create a pull request from the PR tab; the tab shows it (${viewport.name})`, async (t) => {
    const { bare, work, server } = await shared;
    const app = await openApp(t, { viewport, server });
    const runId = await startRun(server, { goal: 'Add the feature file [write:feature.txt=done]', title: 'Add the feature', workflow: 'linear' });
    await untilStanding(server, runId, 'Succeeded');

    await app.goto(`/runs/${runId}?tab=pr`);
    const form = app.page.getByRole('form', { name: 'Create pull request' });
    await form.waitFor();
    t.is(await app.page.getByText('This run has no pull request yet.').count(), 0);
    const title = form.getByRole('textbox', { name: 'Title' });
    await app.page.waitForFunction(() => (document.querySelector('.ship textarea') as HTMLTextAreaElement | null)?.value.includes('### Goal'));
    t.is(await title.inputValue(), 'Add the feature');
    t.true((await form.getByRole('textbox', { name: 'Body' }).inputValue()).includes(`/runs/${runId}`), 'the body links back to the run');
    t.is(await form.getByRole('textbox', { name: 'Base branch' }).inputValue(), 'main');
    const merge = app.page.getByRole('form', { name: 'Merge locally' });
    t.is(await merge.getByRole('combobox', { name: 'Method' }).inputValue(), 'squash');
    await app.axe(t, 'the PR tab with the create form');
    await shot(app, 'form', viewport.width);

    await title.fill('Ship the feature');
    await form.getByRole('checkbox', { name: 'Draft' }).check();
    await form.getByRole('button', { name: 'Create pull request' }).click();
    // the tab shows the pull request as the code host has it, from the run's own record
    const opened = await eventually(() => history(server, runId), (h) => h.some((e) => e.type === 'PullRequestOpened'), 30_000);
    const number = opened.find((e) => e.type === 'PullRequestOpened').data.pullRequest.number as number;
    const link = app.page.getByRole('link', { name: `acme/app#${number}` });
    await link.waitFor({ timeout: 20_000 });
    // the form is gone with the button that was pressed: the keyboard's place is the new pull request's link
    await app.page.waitForFunction((n) => document.activeElement?.textContent === `acme/app#${n}`, number, { timeout: 10_000 });
    await app.page.getByText('open (draft)', { exact: true }).waitFor();
    await app.page.getByText('· Ship the feature').waitFor();
    t.is(git(bare, 'rev-parse', `refs/heads/svc/${runId}`), git(work, 'rev-parse', `svc/${runId}`));
    t.like((await history(server, runId)).find((e) => e.type === 'PullRequestOpened')?.data, { draft: true, base: 'main', by: { kind: 'person' } });
    await app.axe(t, 'the PR tab with the pull request');
    await shot(app, 'opened', viewport.width);

    // merge locally refused verbatim: the run's branch is not a fast-forward of a moved main
    git(work, '-c', 'user.name=p', '-c', 'user.email=p@p', 'commit', '-q', '--allow-empty', '-m', 'moved on');
    const mergeForm = app.page.getByRole('form', { name: 'Merge locally' });
    await mergeForm.getByRole('combobox', { name: 'Method' }).selectOption('fast-forward');
    await mergeForm.getByRole('button', { name: 'Merge locally' }).click();
    await mergeForm.getByRole('alert').filter({ hasText: `not a fast-forward: main has commits that svc/${runId} lacks; update from base first, or merge or squash; nothing was merged` }).waitFor();
    // the button is disabled while the request is out; the keyboard's place is kept when it is back
    await app.page.waitForFunction(() => document.activeElement?.textContent === 'Merge locally', undefined, { timeout: 10_000 });
    await mergeForm.getByRole('combobox', { name: 'Method' }).selectOption('merge');
    await mergeForm.getByRole('button', { name: 'Merge locally' }).click();
    // merged, the form becomes the run's merged marker (a region, no longer a form)
    const merged = app.page.locator('.ship[data-merged]');
    await merged.getByRole('button', { name: 'Archive the run' }).waitFor();
    await app.axe(t, 'merged, offering to archive');
    await shot(app, 'merged', viewport.width);
    // archiving removes its own button: the keyboard's focus stays in the form, on its heading
    await merged.getByRole('button', { name: 'Archive the run' }).click();
    await merged.getByText(/^Archived: /).waitFor();
    await app.page.waitForFunction(() => document.activeElement?.id === 'ship-merge', undefined, { timeout: 10_000 });
    app.noErrors(t);
  });
}
