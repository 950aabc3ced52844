import test from 'ava';
import { eventually } from '../helpers/env.js';
import { detail, untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS, type AppSession } from './browser.js';
import { shot as takeShot } from '../helpers/shots.js';

// One goal on three agents from the New run form, in real Chromium against the real server (the
// scripted harness stands in for the CLIs here; spec/engine/attempts-real.test.ts runs the real
// ones through the same pages): the board shows the three as one card, Compare shows both diffs
// file by file, and "Keep this one" archives the other two. Screenshots: /tmp/shots/attempts-*.png.

test.after.always(closeBrowser);

const shot = (app: AppSession, name: string, w: number) => takeShot(app.page, `/tmp/shots/attempts-${name}-${w}.png`, { fullPage: true });

// each harness writes its own file, all three write both.txt with their own text, and same.txt alike
const GOAL = ['claude', 'codex', 'opencode'].map((h) => `[writeon:${h}:${h}.txt=${h} was here][writeon:${h}:both.txt=written by ${h}]`).join('') + '[write:same.txt=alike][report:success]';

const PLAIN = `digraph plain {
  start [kind=start]
  work  [kind=agent, prompt="{{goal}}"]
  done  [kind=exit]
  start -> work -> done
}`;

for (const viewport of VIEWPORTS) {
  test(`Try on several agents, one card, Compare, Keep this one (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport, workflows: { plain: PLAIN } });
    const { page, server } = app;
    await app.goto('/new');
    const form = page.getByRole('form', { name: 'New run' });
    await form.getByLabel('Workflow').selectOption('plain');
    await form.getByRole('checkbox', { name: /Try on several agents/ }).check();
    // none picked yet: the button says what it will do, not "Start 0 attempts"
    t.true(await form.getByRole('button', { name: 'Start attempts', exact: true }).isDisabled());
    for (const h of ['claude', 'codex', 'opencode']) await form.getByRole('checkbox', { name: new RegExp(`^${h}`) }).check();
    await form.getByRole('textbox', { name: 'Model for codex' }).fill('gpt-test');
    // the model fields line up in one column, inside the screen, whatever each harness is called
    const models = await Promise.all((await form.getByRole('textbox', { name: /^Model for / }).all()).map((m) => m.boundingBox()));
    t.is(models.length, 3);
    t.is(new Set(models.map((b) => Math.round(b!.x))).size, 1, 'the model fields line up');
    for (const b of models) t.true(b!.x >= 0 && b!.x + b!.width <= viewport.width, 'a model field inside the screen');
    await form.getByRole('textbox', { name: 'Goal' }).fill(GOAL);
    await form.getByRole('textbox', { name: 'Title' }).fill('Say hello three ways');
    await app.axe(t, 'the New run form with three agents picked');
    await shot(app, 'new-run', viewport.width);
    await form.getByRole('button', { name: 'Start 3 attempts' }).click();

    // the board: one card for the group, each attempt with its agent, standing and cost
    await page.waitForURL((u) => u.pathname === '/');
    const card = page.locator('li.board-row[data-group]');
    await card.waitFor();
    const attempts = card.locator('li[data-attempt]');
    t.is(await attempts.count(), 3);
    const ids = await attempts.evaluateAll((els) => els.map((e) => e.getAttribute('data-attempt')!));
    for (const id of ids) await untilStanding(server, id, 'Succeeded');
    t.deepEqual((await Promise.all(ids.map((id) => detail(server, id)))).map((d) => d.currentStepSettings?.harness.value ?? null).length, 3);
    await card.locator('.badge.s-Succeeded').nth(2).waitFor({ timeout: 20_000 });
    t.deepEqual(await attempts.locator('a').allTextContents(), ['claude', 'codex', 'opencode']);
    // the scripted harness reports $0.01 a turn (spec/fixtures/harness/scripted.ts): each attempt shows its cost
    t.is(await card.getByText(/^\$0\.0\d+$/).count(), 3, 'each attempt shows the cost its turns reported');
    t.is(await page.locator('li.board-row').count(), 1, 'the three attempts are one card');
    await app.axe(t, 'the board with an attempts card');
    await shot(app, 'board', viewport.width);

    // Compare: the first two attempts, the file both changed first
    await card.getByRole('link', { name: 'Compare' }).click();
    await page.waitForURL((u) => u.pathname === '/compare');
    await page.getByRole('heading', { level: 2, name: 'A: claude' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'B: codex (gpt-test)' }).waitFor();
    const files = page.locator('section.compare-file');
    await files.first().locator('.d2h-file-wrapper').first().waitFor();
    const paths = (await files.evaluateAll((els) => els.map((e) => e.getAttribute('data-file')!))).filter((p) => p !== '.turns.log');
    t.deepEqual(paths, ['both.txt', 'same.txt', 'claude.txt', 'codex.txt']);
    const both = page.locator('section.compare-file[data-file="both.txt"]');
    await both.getByText('changed by both').waitFor();
    await both.getByText('written by claude').waitFor();
    await both.getByText('written by codex').waitFor();
    // each diff says whose it is where it is drawn (on a phone the A and B headings are screens away)
    t.deepEqual(await both.locator('.compare-caption').allTextContents(), ['A (claude)', 'B (codex)']);
    t.true(await both.getByText('B (codex)', { exact: true }).isVisible());
    await page.locator('section.compare-file[data-file="same.txt"]').getByText('the same change in both').waitFor();
    await page.locator('section.compare-file[data-file="claude.txt"] .compare-one', { hasText: 'B (codex)' }).getByText('No change to this file.').waitFor();
    // side by side on a wide screen, one above the other on a phone
    const [left, right] = await Promise.all([page.locator('[data-side="A"]').boundingBox(), page.locator('[data-side="B"]').boundingBox()]);
    if (viewport.width > 760) t.true(right!.x > left!.x + left!.width - 1, 'side by side');
    else t.true(right!.y >= left!.y + left!.height - 1, 'stacked');
    await app.axe(t, 'the compare page');
    await shot(app, 'compare', viewport.width);

    // Keep this one: claude's attempt stays, the other two are archived (their journals stay)
    await page.getByRole('button', { name: 'Keep this one: A (claude)' }).click();
    // it asks first, saying what archiving each other attempt keeps
    const question = page.getByRole('group', { name: 'Confirm: Keep this one: A (claude)' });
    await question.getByText(/The other attempts are archived\.\s*codex: \d+ uncommitted changes? .* will be kept on branch svc\/\S+ and restored if you unarchive it\.\s*opencode: /).waitFor();
    await app.axe(t, 'the Keep question');
    await shot(app, 'keep-question', viewport.width);
    await question.getByRole('button', { name: 'Keep this one' }).click();
    await page.getByRole('status').getByText('Kept A (claude); archived the others: codex, opencode. Their uncommitted work is kept: unarchive one to get its worktree back as it was.').waitFor();
    t.true(await page.evaluate(() => document.activeElement?.closest('[role=status]') !== null), 'focus goes to what Keep did, not to the page top');
    const [kept, ...others] = ids;
    for (const id of others) await eventually(() => detail(server, id!), (d) => d.archived === true);
    t.like(await detail(server, kept!), { archived: false, attempt: { kept: true } });
    await page.locator('[data-side="A"]').getByText('kept').waitFor();
    t.is(await page.getByRole('button', { name: /^Keep this one/ }).count(), 0, 'nothing is left to keep');
    await app.axe(t, 'the compare page after Keep');
    await shot(app, 'kept', viewport.width);

    // the run page: Compare with… another run of the project
    await app.goto(`/runs/${kept}`);
    await page.getByText('Attempt 1 of 3 · kept').waitFor();
    await page.getByRole('button', { name: 'Compare with…' }).click();
    const picker = page.getByRole('combobox', { name: 'Compare with' });
    await picker.waitFor();
    t.true(await picker.evaluate((el) => el === document.activeElement), 'focus goes into the form that replaced the button');
    // its two buttons stay together, beside the picker or on the line under it
    const cw = page.getByRole('form', { name: 'Compare with another run' });
    const [go, cancel] = await Promise.all([cw.getByRole('button', { name: 'Compare' }).boundingBox(), cw.getByRole('button', { name: 'Cancel' }).boundingBox()]);
    t.true(Math.abs(go!.y - cancel!.y) < 2 && cancel!.x + cancel!.width <= viewport.width, 'Compare and Cancel on one line, inside the screen');
    await picker.selectOption(others[1]!);
    await page.getByRole('form', { name: 'Compare with another run' }).getByRole('button', { name: 'Compare' }).click();
    await page.waitForURL((u) => u.pathname === '/compare' && u.searchParams.get('b') === others[1]);
    await page.getByRole('heading', { level: 2, name: 'B: opencode' }).waitFor();
    await app.axe(t, 'compare with an archived attempt');
    app.noErrors(t);
  });
}

// Compare follows its two runs: a Keep made elsewhere (another tab, MCP, HTTP) shows on an open
// Compare page without a reload, as it does on the board's card.
test('Compare and the board show a Keep made elsewhere without a reload', async (t) => {
  const app = await openApp(t, { viewport: VIEWPORTS[0]!, workflows: { plain: PLAIN } });
  const { page, server } = app;
  const r = await server.post('/api/runs', { project: server.projectId, workflow: 'plain', goal: GOAL, title: 'Two ways', attempts: [{ harness: 'claude' }, { harness: 'codex' }] });
  t.is(r.status, 200, JSON.stringify(r.body));
  const [a, b] = (r.body.attempts as { runId: string }[]).map((x) => x.runId);
  for (const id of [a!, b!]) await untilStanding(server, id, 'Succeeded');
  await app.goto(`/compare?a=${a}&b=${b}`);
  await page.getByRole('button', { name: 'Keep this one: B (codex)' }).waitFor();
  await page.evaluate(() => { (window as unknown as { notReloaded: boolean }).notReloaded = true; });
  // the board, open in another tab, follows the same Keep
  const board = await app.context.newPage();
  await board.goto('/');
  const card = board.locator('li.board-row[data-group]');
  await card.getByText('2 agents', { exact: true }).waitFor();

  const kept = await server.post(`/api/runs/${b}/keep`, {});
  t.is(kept.status, 200, JSON.stringify(kept.body));
  await page.locator('[data-side="B"]').getByText('kept').waitFor({ timeout: 15_000 });
  await page.locator('[data-side="A"]').getByText('archived').waitFor();
  t.is(await page.getByRole('button', { name: /^Keep this one/ }).count(), 0, 'nothing is left to keep');
  t.true(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true), 'the same page, not a reload');
  // the archived attempt leaves the board; the card says it shows one of the two
  await card.getByText('1 of 2 agents shown · kept codex', { exact: true }).waitFor({ timeout: 15_000 });
  app.noErrors(t);
});
