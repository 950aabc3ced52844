import test from 'ava';
import { history, untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';

// The New run page in real Chromium against a real server: a person picks a workflow, sees its
// description and its inputs with their defaults, fills the form and lands on the new run.

test.after.always(closeBrowser);

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
