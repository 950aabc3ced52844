import test from 'ava';
import { eventually } from '../helpers/env.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

// The Settings page in real Chromium against a real server: General changes stored and listed
// with their source, refusals shown, harness readiness re-checked; the MCP section's address, the
// token hidden until asked and copied, Regenerate behind a warning (the old token then refused on
// /mcp), the endpoint and tool groups switched, and the registration lines; the pull request watch
// interval and the ordered fallback harnesses; the Prices table. Screenshots: /tmp/shots/settings-gaps-*.png.

test.after.always(closeBrowser);

const innerWidthOf = (v: { readonly width: number }) => v.width;

const mcpStatus = async (url: string, token: string): Promise<number> =>
  (await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  })).status;

for (const viewport of VIEWPORTS) {
  test(`General: run cap, watchdog, default harness, code host and token; recent changes with their source; harness Re-check (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport });
    const { page, server } = app;
    await app.goto('/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByText('No change yet').waitFor();
    await page.locator('[data-harness="claude"]').getByText('Ready (scripted)').waitFor();
    await app.axe(t, 'settings as shipped');

    const general = page.getByRole('region', { name: 'General' });
    await general.getByLabel('Runs at work at once').fill('5');
    await general.getByRole('button', { name: 'Save run cap' }).click();
    await general.getByRole('status').filter({ hasText: 'Run cap set to 5.' }).waitFor();
    // the button is disabled while the change is sent; the keyboard's place is on it again afterwards
    await page.waitForFunction(() => document.activeElement?.textContent === 'Save run cap', undefined, { timeout: 10_000 });
    await general.getByLabel('Seconds an agent may print nothing before its turn is stopped').fill('90');
    await general.getByRole('button', { name: 'Save watchdog' }).click();
    await general.getByRole('status').filter({ hasText: 'Watchdog set to 90 seconds.' }).waitFor();
    await general.getByLabel('Harness of steps that choose none').selectOption('codex');
    await general.getByRole('button', { name: 'Save default harness' }).click();
    await general.getByRole('status').filter({ hasText: 'Default harness set to codex.' }).waitFor();
    await general.getByLabel('Token', { exact: true }).fill('ghp_secret_value');
    await general.getByRole('button', { name: 'Save token' }).click();
    await general.getByText('A token is set. It is never shown again.').waitFor();
    t.is(await general.getByLabel('Token', { exact: true }).inputValue(), '', 'the token leaves the form once saved');
    // its placeholder is read whole, on the phone too (it was cut off mid-sentence)
    t.true(await general.getByLabel('Token', { exact: true }).evaluate((el: HTMLInputElement) => {
      const st = getComputedStyle(el);
      const pen = document.createElement('canvas').getContext('2d')!;
      pen.font = st.font;
      return el.placeholder.startsWith('(set') && pen.measureText(el.placeholder).width <= el.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight);
    }), 'the token placeholder fits its field');
    // a refusal from the server is shown as it is, and changes nothing
    await general.getByLabel('GraphQL address').fill('ftp://example.com/graphql');
    await general.getByRole('button', { name: 'Save code host' }).click();
    t.regex(await general.getByRole('alert').textContent() ?? '', /http\(s\) URL/);

    const s = (await server.get('/api/settings')).body;
    t.like(s, { runCap: { _tag: 'Chosen', value: 5 }, watchdogSeconds: 90, defaultHarness: 'codex', codeHost: { graphqlUrl: 'https://api.github.com/graphql', token: '(set)' } });

    // what is saved is what the page shows when opened again
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    const reopened = page.getByRole('region', { name: 'General' });
    await eventually(() => reopened.getByLabel('Harness of steps that choose none').inputValue(), (v) => v === 'codex', 30_000).catch(() => undefined);
    t.is(await reopened.getByLabel('Harness of steps that choose none').inputValue(), 'codex', 'the saved default harness is the one shown');
    t.is(await reopened.getByLabel('Runs at work at once').inputValue(), '5');

    const changes = page.getByRole('list', { name: 'Recent changes, newest first' });
    await changes.locator('li').nth(3).waitFor();
    t.deepEqual((await changes.locator('li .grow').allTextContents()), ['Code host token set', 'Default harness: codex', 'Watchdog: 90 s', 'Run cap: 5']);
    t.is(await changes.locator('li').first().locator('.muted').first().textContent(), 'by Settings page (HTTP)');
    // each change reads on a line of its own width, not squeezed beside its source into a column of broken words
    const widths = await changes.locator('li .grow').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
    t.true(widths.every((w) => w >= 0.6 * (viewport.width - 60)), JSON.stringify(widths));
    t.false((await page.locator('main').textContent())!.includes('ghp_secret_value'), 'the token is never shown');

    await general.getByRole('button', { name: 'Use the default' }).click();
    await general.getByRole('status').filter({ hasText: 'Run cap back to the default.' }).waitFor();
    t.deepEqual((await server.get('/api/settings')).body.runCap, { _tag: 'Default' });

    const harnesses = page.getByRole('region', { name: 'Harnesses' });
    await harnesses.getByRole('button', { name: 'Re-check' }).click();
    await harnesses.getByRole('status').filter({ hasText: 'Checked again.' }).waitFor();
    t.is(await harnesses.getByRole('listitem').count(), 3);
    await app.axe(t, 'after the changes');
    app.noErrors(t);
  });

  test(`General: pull request watch interval and fallback harnesses, in order, stored and shown again (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport });
    const { page, server } = app;
    await app.goto('/settings');
    const general = page.getByRole('region', { name: 'General' });
    const watch = general.getByLabel('Seconds between reads of a watched pull request');
    t.is(await watch.inputValue(), '60', 'the default is shown');
    await general.getByText('None.').waitFor();

    await watch.fill('120');
    await general.getByRole('button', { name: 'Save watch interval' }).click();
    await general.getByRole('status').filter({ hasText: 'Pull request watch interval set to 120 seconds.' }).waitFor();

    const add = general.getByLabel('Add a fallback');
    await add.selectOption('opencode');
    await add.selectOption('codex');
    await add.selectOption('claude');
    const fallbacks = general.getByRole('list', { name: 'Fallback harnesses, in order' });
    t.deepEqual(await fallbacks.locator('li .grow').allTextContents(), ['1. opencode', '2. codex', '3. claude']);
    t.is(await add.count(), 0, 'with every harness listed there is nothing left to add');
    await general.getByRole('button', { name: 'Move codex up' }).click();
    await general.getByRole('button', { name: 'Remove fallback claude' }).click();
    t.deepEqual(await fallbacks.locator('li .grow').allTextContents(), ['1. codex', '2. opencode']);
    await app.axe(t, 'fallback harnesses being edited');
    await general.getByRole('button', { name: 'Save fallback harnesses' }).click();
    await general.getByRole('status').filter({ hasText: 'Fallback harnesses set to codex, opencode.' }).waitFor();

    t.like((await server.get('/api/settings')).body, { prWatchIntervalSeconds: 120, fallbackHarnesses: ['codex', 'opencode'] });
    const changes = page.getByRole('list', { name: 'Recent changes, newest first' });
    await changes.locator('li').nth(1).waitFor();
    t.deepEqual(await changes.locator('li .grow').allTextContents(), ['Fallback harnesses on quota: codex, opencode', 'Pull request watch interval: 120 s']);
    await shot(page, `/tmp/shots/settings-gaps-${viewport.width}.png`, { fullPage: true });
    await shot(general, `/tmp/shots/settings-gaps-general-${viewport.width}.png`);

    // what is saved is what the page shows when opened again
    await page.reload();
    const reopened = page.getByRole('region', { name: 'General' });
    const shown = reopened.getByRole('list', { name: 'Fallback harnesses, in order' });
    await shown.locator('li').nth(1).waitFor();
    t.deepEqual(await shown.locator('li .grow').allTextContents(), ['1. codex', '2. opencode']);
    t.is(await reopened.getByLabel('Seconds between reads of a watched pull request').inputValue(), '120');

    // an empty list is a choice too: the run waits for the window
    await reopened.getByRole('button', { name: 'Remove fallback codex' }).click();
    await reopened.getByRole('button', { name: 'Remove fallback opencode' }).click();
    await reopened.getByRole('button', { name: 'Save fallback harnesses' }).click();
    await reopened.getByRole('status').filter({ hasText: 'No fallback harnesses: a run out of quota waits.' }).waitFor();
    t.deepEqual((await server.get('/api/settings')).body.fallbackHarnesses, []);
    await app.axe(t, 'after the changes');
    app.noErrors(t);
  });

  test(`Prices: the table as stored, a row removed and one added, saved and shown again, every field within the screen (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport });
    const { page, server } = app;
    await app.goto('/settings');
    const prices = page.getByRole('region', { name: 'Prices' });
    const rows = prices.locator('fieldset.price-row');
    await rows.first().waitFor();
    const names = () => rows.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset['price']));
    t.deepEqual(await names(), ['codex gpt-5', 'codex gpt-5-codex', 'codex gpt-5-mini', 'opencode openai/gpt-5']);
    t.is(await rows.first().getByLabel('Output $/M tokens').inputValue(), '10');
    // a phone shows each row's fields wrapped, none past the screen's edge, and no sideways scroll
    const boxes = await prices.locator('input, select, button').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.right]));
    t.true(boxes.every(([l, r]) => l! >= 0 && r! <= innerWidthOf(viewport)), JSON.stringify(boxes));
    t.true(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scroll of the page');
    await app.axe(t, 'prices');

    await prices.getByRole('button', { name: 'Remove the price of codex gpt-5-mini' }).click();
    t.is(await page.evaluate(() => document.activeElement?.textContent), 'Add a price', 'the keyboard is not sent back to the top');
    await prices.getByRole('button', { name: 'Add a price' }).click();
    const added = rows.last();
    await added.getByLabel('Harness').selectOption('claude');
    await added.getByLabel('Model', { exact: true }).fill('*');
    await added.getByLabel('Input $/M tokens', { exact: true }).fill('3');
    await added.getByLabel('Cached input $/M tokens').fill('0.3');
    await added.getByLabel('Output $/M tokens').fill('15');
    await prices.getByRole('button', { name: 'Save prices' }).click();
    await prices.getByRole('status').filter({ hasText: 'Prices saved: 4 rows.' }).waitFor();
    const stored = (await server.get('/api/settings')).body.prices as { harness: string; model: string }[];
    t.deepEqual(stored.map((p) => `${p.harness} ${p.model}`), ['codex gpt-5', 'codex gpt-5-codex', 'opencode openai/gpt-5', 'claude *']);
    t.like(stored[3], { inputPerMTok: 3, cachedInputPerMTok: 0.3, outputPerMTok: 15 });
    const changes = page.getByRole('list', { name: 'Recent changes, newest first' });
    await changes.locator('li .grow', { hasText: 'Prices changed' }).waitFor();

    await page.reload();
    await page.getByRole('region', { name: 'Prices' }).locator('fieldset.price-row').first().waitFor();
    t.deepEqual(await names(), ['codex gpt-5', 'codex gpt-5-codex', 'opencode openai/gpt-5', 'claude *']);
    app.noErrors(t);
  });

  // serial: the copy check reads the one clipboard this Chromium has
  test.serial(`MCP: address, token hidden until asked and copied, Regenerate with a warning, endpoint and tool groups, registration lines (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport });
    const { page, server, context } = app;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const before = (await server.get('/api/settings/mcp')).body as { url: string; token: string };
    await app.goto('/settings');
    const mcp = page.getByRole('region', { name: 'MCP' });
    await mcp.locator('#mcp-url').filter({ hasText: `${server.url}/mcp` }).waitFor();
    t.false((await mcp.textContent())!.includes(before.token), 'the token is hidden until asked');
    await mcp.getByRole('button', { name: 'Copy the token' }).click();
    await mcp.getByText('Copied.').waitFor();
    t.is(await page.evaluate(() => navigator.clipboard.readText()), before.token);
    await mcp.getByRole('button', { name: 'Show token' }).click();
    t.is(await mcp.locator('#mcp-token').textContent(), before.token);
    t.is(await mcp.getByRole('button', { name: 'Hide token' }).getAttribute('aria-pressed'), 'true');

    const claude = mcp.locator('[data-cli="Claude Code"] pre');
    t.is(await claude.textContent(), `claude mcp add --transport http svc ${server.url}/mcp --header "Authorization: Bearer $(svc mcp token)"`);
    t.regex(await mcp.locator('[data-cli="Codex"] pre').textContent() ?? '', /codex mcp add svc --url \S+\/mcp --bearer-token-env-var SVC_MCP_TOKEN/);
    t.regex(await mcp.locator('[data-cli="OpenCode"] pre').textContent() ?? '', /opencode mcp add svc --url \S+\/mcp --header "Authorization=Bearer \$\(svc mcp token\)"/);
    await app.axe(t, 'MCP with the token shown');

    t.is(await mcpStatus(server.url, before.token), 200);
    await mcp.getByRole('button', { name: 'Regenerate token…' }).click();
    await mcp.getByText(/every agent registered with the old one is refused/).waitFor();
    await app.axe(t, 'regenerate warning');
    await mcp.getByRole('button', { name: 'Regenerate', exact: true }).click();
    await mcp.getByRole('status').filter({ hasText: 'A new token is in place' }).waitFor();
    const after = (await server.get('/api/settings/mcp')).body.token as string;
    t.not(after, before.token);
    t.is(await mcp.locator('#mcp-token').textContent(), after);
    t.is(await mcpStatus(server.url, before.token), 401, 'the old token is refused');
    t.is(await mcpStatus(server.url, after), 200);

    await mcp.getByRole('checkbox', { name: /^Archiving/ }).check();
    await mcp.getByRole('status').filter({ hasText: 'Archiving: on.' }).waitFor();
    t.true((await server.get('/api/settings')).body.mcp.groups.archiving);
    await mcp.getByRole('checkbox', { name: /^Endpoint on/ }).uncheck();
    await mcp.getByRole('status').filter({ hasText: 'The endpoint is off.' }).waitFor();
    t.is(await mcpStatus(server.url, after), 404, 'switched off, /mcp answers 404');
    await mcp.getByRole('checkbox', { name: /^Endpoint on/ }).check();
    await mcp.getByRole('status').filter({ hasText: 'The endpoint is on.' }).waitFor();
    t.is(await mcpStatus(server.url, after), 200);

    const changes = page.getByRole('list', { name: 'Recent changes, newest first' });
    await changes.locator('li').nth(3).waitFor();
    t.deepEqual(await changes.locator('li .grow').allTextContents(), ['MCP endpoint: on', 'MCP endpoint: off', 'MCP tool group archiving: on', 'MCP token regenerated']);
    app.noErrors(t);
  });
}
