import test from 'ava';
import { eventually } from '../helpers/env.js';
import { history, untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

// The New run page in real Chromium against a real server: a person picks a workflow, sees its
// description and its inputs with their defaults, fills the form and lands on the new run.

test.after.always(closeBrowser);

// `work` runs on the workflow's choice (claude), `review` on opencode, which is not logged in.
const MIXED = `digraph mixed {
  start  [kind=start]
  work   [kind=agent, prompt="{{goal}}"]
  review [kind=agent, harness=opencode, prompt="review {{goal}}"]
  done   [kind=exit]
  start -> work -> review -> done
}`;

// Serial (before the others): opencode's readiness is this process's environment.
for (const viewport of VIEWPORTS) {
  test.serial(`a harness the chosen steps need that is not ready is said before starting (${viewport.name})`, async (t) => {
    process.env['SCRIPTED_OPENCODE_DOWN'] = '1';
    const app = await openApp(t, { viewport, workflows: { mixed: MIXED } });
    const { page } = app;
    await eventually(() => app.server.get('/api/harnesses'), (r) => r.body.harnesses.find((h: any) => h.name === 'opencode').availability._tag === 'NotLoggedIn');
    await app.goto('/new?workflow=mixed');
    const needs = page.locator('#nr-harness-needs');
    await needs.getByRole('heading', { name: 'Not ready to start' }).waitFor();
    t.is((await needs.locator('li').allTextContents()).join('|'), 'opencode is not logged in (scripted: down). To fix it, log in with opencode auth login.');
    t.is(await needs.locator('li code').textContent(), 'opencode auth login');
    await app.axe(t, 'warning shown');
    await shot(page, `${process.env['SVC_SHOTS']}/new-run-needs-${viewport.width}.png`, { fullPage: true });
    await page.getByLabel('Harness').selectOption('claude');
    await needs.waitFor({ state: 'detached' });
    await page.getByLabel('Harness').selectOption('opencode');
    await needs.waitFor();
    await page.getByLabel('Harness').selectOption('');
    await page.getByLabel('Goal').fill('Tidy up');
    await page.getByRole('button', { name: 'Start run' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    t.regex(await alert.textContent() ?? '', /^not started: harness opencode is not logged in \(scripted: down\); log in with `opencode auth login`/);
    t.is(new URL(page.url()).pathname, '/new');
    delete process.env['SCRIPTED_OPENCODE_DOWN'];
    await needs.getByRole('button', { name: 'Check again' }).click();
    await needs.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/runs\/[^/]+$/);
    app.noErrors(t);
  });
}

const BRIEFED = `digraph briefed {
  description="Work from a written brief, <b>carefully</b>."
  inputs="brief, depth"
  defaults="depth=2"
  start [kind=start]
  work  [kind=agent, prompt="{{goal}} {{inputs.brief}} {{inputs.depth}}"]
  done  [kind=exit]
  start -> work -> done
}`;

for (const viewport of VIEWPORTS) {
  test(`a run created for later with inputs, harness and model lands on its page (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport, workflows: { briefed: BRIEFED } });
    const { page } = app;
    await app.goto('/new');
    await page.getByRole('heading', { level: 1, name: 'New run' }).waitFor();
    const workflow = page.getByLabel('Workflow');
    await page.getByRole('option', { name: 'default (default)' }).waitFor({ state: 'attached' });
    t.is(await workflow.inputValue(), 'default', "the project's default workflow comes first");
    await workflow.selectOption('briefed');
    // the description is text, and describes the picker
    await page.getByText('Work from a written brief, <b>carefully</b>.').waitFor();
    t.is(await page.locator('main b').count(), 0);
    const inputs = page.getByRole('group', { name: 'Inputs of briefed' });
    t.is(await inputs.getByLabel('depth').inputValue(), '2', 'a default is filled in');
    t.is(await inputs.getByLabel('brief (required)').inputValue(), '');
    await inputs.getByLabel('brief (required)').fill('the brief text');
    await page.getByLabel('Goal').fill('Make the widget faster');
    await page.getByLabel('Title').fill('Faster widget');
    t.true(await page.getByLabel('Model').isDisabled(), 'a model needs a harness');
    await page.getByLabel('Harness').selectOption('codex');
    await page.getByLabel('Model').fill('gpt-5-mini');
    await page.getByLabel(/Start now/).uncheck();
    await app.axe(t, 'filled form');
    await page.getByRole('button', { name: 'Create run' }).click();
    await page.waitForURL(/\/runs\/[^/]+$/);
    await page.getByRole('heading', { level: 1, name: 'Faster widget' }).waitFor();
    const runId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const created = (await history(app.server, runId)).find((e) => e.type === 'RunCreated');
    t.like(created.data, { goal: 'Make the widget faster', title: 'Faster widget', inputs: { brief: 'the brief text', depth: '2' }, harness: 'codex', model: 'gpt-5-mini' });
    t.is(created.data.workflow.name ?? created.data.workflow, 'briefed');
    t.is((await app.server.get(`/api/runs/${runId}`)).body.standing, 'Created', 'start later: recorded, not queued');
    app.noErrors(t);
  });
}

test('start now runs the workflow; a refusal is shown and nothing is lost from the form', async (t) => {
  const app = await openApp(t, { viewport: VIEWPORTS[0]! });
  const { page } = app;
  await app.goto(`/new?workflow=linear`);
  await page.getByRole('option', { name: 'linear' }).waitFor({ state: 'attached' });
  t.is(await page.getByLabel('Workflow').inputValue(), 'linear', '?workflow= preselects');
  await page.getByLabel('ticket (required)').fill('T-1');
  await page.getByLabel('Goal').fill('   ');
  // a blank goal passes the browser's `required` but the server refuses it: the detail is shown
  await page.getByRole('button', { name: 'Start run' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  t.regex(await alert.textContent() ?? '', /goal/i);
  t.is(new URL(page.url()).pathname, '/new');
  t.is(await page.getByLabel('ticket (required)').inputValue(), 'T-1', 'the form keeps what was typed');
  await page.getByLabel('Goal').fill('Ship it');
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/\/runs\/[^/]+$/);
  const runId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  await untilStanding(app.server, runId, 'Succeeded');
  app.noErrors(t);
});
