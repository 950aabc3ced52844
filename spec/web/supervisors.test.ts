import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ensureToken } from '../../lib/auth/mcp-token.js';
import { eventually } from '../helpers/env.js';
import type { TestServer } from '../helpers/server.js';
import { call, textOf } from '../mcp/helpers/call.js';
import { GATE } from '../supervisors/kit.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';

// The Supervisors page in real Chromium against the real server: switch the feature on, make a
// project's supervisor, change its tiers and limits (checked through the API), see an approval
// card a real supervisor call over MCP posted and approve it from the page, and talk in its chat,
// live over /api/events?supervisor=. Everything from the supervisor and the chat is text.

test.after.always(closeBrowser);

const mcpClient = async (s: TestServer, key: string): Promise<Client> => {
  const c = new Client({ name: 'supervisors-page-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp?supervisor=${encodeURIComponent(key)}`), {
    requestInit: { headers: { Authorization: `Bearer ${ensureToken(s.home)}` } },
  }));
  return c;
};

const runUntil = async (s: TestServer, body: object, standing: string): Promise<string> => {
  const r = await s.post('/api/runs', { project: s.projectId, ...body });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  const runId = r.body.runId as string;
  await eventually(async () => (await s.get(`/api/runs/${runId}`)).body.standing, (st) => st === standing);
  return runId;
};

const positionOf = async (s: TestServer, runId: string): Promise<string> => (await s.get(`/api/runs/${runId}/detail`)).body.position;

for (const viewport of VIEWPORTS) {
  test(`switch on, make a project's supervisor, set its tiers and limits, approve a card, chat (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport, workflows: { gate: GATE } });
    const { page, server: s } = app;
    await app.goto('/supervisors');
    await page.getByRole('heading', { level: 1, name: 'Supervisors' }).waitFor();
    await page.getByText('No supervisor yet').waitFor();
    await app.axe(t, 'feature off');

    // the feature switch
    await page.getByRole('switch', { name: 'Supervisors on' }).check();
    await page.getByRole('status').filter({ hasText: 'Supervisors are on.' }).waitFor();
    t.true((await s.get('/api/settings')).body.supervisors.enabled);
    await page.getByRole('heading', { level: 2, name: 'Global supervisor' }).waitFor();

    // a project's supervisor
    await page.getByLabel('Project without a supervisor').selectOption({ label: 'demo' });
    await page.getByRole('button', { name: 'Create supervisor' }).click();
    const detail = page.getByRole('region', { name: 'Supervisor of demo' });
    await detail.waitFor();
    const sup = (await s.get('/api/supervisors')).body.find((x: { project: string | null }) => x.project === s.projectId);
    t.truthy(sup, 'made through the page');
    t.regex(page.url(), new RegExp(`\\?id=${sup.id}$`));
    t.is(await page.getByLabel('Project without a supervisor').count(), 0, 'no project is left without one');

    // tiers, limits, fallbacks, wakes
    await detail.getByLabel('Secure work').selectOption('DoIt');
    await detail.getByLabel('Start runs').selectOption('Never');
    await detail.getByLabel('Run cap').fill('3');
    await detail.getByLabel('Daily limit (USD)').fill('2.5');
    await detail.getByLabel('Add a fallback').selectOption('codex');
    await detail.getByLabel('Add a fallback').selectOption('claude');
    await detail.getByRole('button', { name: 'Move claude up' }).click();
    await detail.getByLabel('a run fails').uncheck();
    await detail.getByRole('button', { name: 'Save settings' }).click();
    await detail.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    const saved = (await s.get(`/api/supervisors/${sup.id}`)).body;
    t.like(saved, {
      actions: { messageAndControl: 'AskFirst', secureWork: 'DoIt', switchHarness: 'AskFirst', startRuns: 'Never', archiveRuns: 'AskFirst' },
      runCap: 3, dailyLimitUsd: 2.5, quotaFallbacks: ['claude', 'codex'], wakeOn: { failed: false, question: true, gate: true },
    });
    t.true(await detail.getByRole('button', { name: 'Save settings' }).isDisabled(), 'nothing left to save');
    await detail.getByText('Spent today: $0.00 of $2.50').first().waitFor();

    // a card from a real supervisor call over MCP, approved from the page
    const run = await runUntil(s, { goal: 'hold here', workflow: 'gate' }, 'Paused');
    const client = await mcpClient(s, saved.key);
    t.teardown(() => client.close());
    const asked = await call(client, 'message_run', { run, text: 'carry on', delivery: 'Hold', reason: 'nudge <b>it</b>' });
    t.true(asked.structuredContent?.['awaitingApproval'] === true, textOf(asked));
    const cardId = String(asked.structuredContent?.['card']);
    const card = detail.locator(`[data-card="${cardId}"]`);
    await card.getByText('Waiting for you').waitFor();
    t.is(await card.locator('.card-reason').textContent(), 'Reason: nudge <b>it</b>', 'the reason is text');
    await app.axe(t, 'with an open card');
    await card.getByLabel('Note (optional)').fill('fine by me');
    await card.getByRole('button', { name: 'Approve' }).click();
    await card.locator('.badge', { hasText: 'Applied' }).waitFor();
    await card.getByText('fine by me').waitFor();
    const decided = (await s.get(`/api/supervisors/${sup.id}/approvals`)).body.approvals.find((c: { card: string }) => c.card === cardId);
    t.like(decided, { decided: { decision: 'Approve', result: 'Applied', note: 'fine by me', sender: 'Supervisors page' } });
    // the decision also lands in the chat, live
    await detail.locator('.chat-entry[data-type="ApprovalDecided"]').first().waitFor();

    // the chat: a message from the page, shown as text
    const text = 'Hello <img src=x onerror=alert(1)>';
    await detail.getByLabel('Message to Supervisor of demo').fill(text);
    await detail.getByRole('button', { name: 'Send' }).click();
    await detail.locator('.chat-entry[data-type="PersonWrote"] .chat-text', { hasText: text }).waitFor();
    t.is(await page.locator('main img').count(), 0, 'chat text is text');
    const chat = (await s.get(`/api/supervisors/${sup.id}/chat`)).body.entries;
    t.true(chat.some((e: { type: string; data: { text?: string; sender?: string } }) => e.type === 'PersonWrote' && e.data.text === text && e.data.sender === 'Supervisors page'));
    t.is(await detail.locator('.chat-entry[data-type="PersonWrote"] .chat-meta strong').last().textContent(), 'You');

    // the key: hidden until asked
    const keyCode = detail.locator('code.key');
    t.not(await keyCode.textContent(), saved.key);
    await detail.getByRole('button', { name: 'Show key' }).click();
    t.is(await keyCode.textContent(), saved.key);

    await app.axe(t, 'after the changes');
    app.noErrors(t);
  });
}

const JSON_TYPE = { 'content-type': 'application/json' };

for (const viewport of VIEWPORTS) {
  test(`denied and stale cards, the chat live and paged back, pause for the day, a refusal, a new key (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport, workflows: { gate: GATE } });
    const { page, server: s } = app;
    await s.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Supervisors', enabled: true }), JSON_TYPE);
    const sup = (await s.post('/api/supervisors', { project: s.projectId })).body;
    for (let i = 1; i <= 60; i++) await s.post(`/api/supervisors/${sup.id}/chat`, { text: `message ${i}` }, { 'svc-setting-source': 'Ada' });
    await app.goto(`/supervisors?id=${sup.id}`);
    const detail = page.getByRole('region', { name: 'Supervisor of demo' });
    const log = detail.getByRole('log', { name: 'Chat with Supervisor of demo' });
    await log.getByText('message 60', { exact: true }).waitFor();

    // paged back: the newest page first, earlier pages on request
    const first = log.getByText('message 1', { exact: true });
    t.is(await first.count(), 0, 'the oldest message is not in the newest page');
    while (await first.count() === 0) {
      const held = await log.locator('.chat-entry').count();
      await detail.getByRole('button', { name: 'Show earlier' }).click();
      await page.waitForFunction((n) => document.querySelectorAll('.chat-entry').length > n, held);
    }
    t.is(await detail.getByRole('button', { name: 'Show earlier' }).count(), 0, 'at the chat\'s start');
    const seqs = await log.locator('.chat-entry').evaluateAll((ls) => ls.map((l) => Number(l.getAttribute('data-seq'))));
    t.deepEqual(seqs, [...seqs].sort((a, b) => a - b), 'oldest first');
    t.is(new Set(seqs).size, seqs.length, 'each entry once');
    t.is(seqs[0], 1);

    // live: what another client writes arrives without a reload
    await s.post(`/api/supervisors/${sup.id}/chat`, { text: 'from elsewhere' }, { 'svc-setting-source': 'Bob' });
    await log.locator('.chat-entry', { hasText: 'from elsewhere' }).getByText('Bob').waitFor();

    // cards: denied, and approved after the run moved (Stale)
    const client = await mcpClient(s, sup.key);
    t.teardown(() => client.close());
    const gate = await runUntil(s, { goal: 'hold here', workflow: 'gate' }, 'Paused');
    const busy = await runUntil(s, { goal: '[silent]', workflow: 'linear' }, 'Running');
    const ask = async (tool: string, args: object) => {
      const a = await call(client, tool, args);
      if (a.structuredContent?.['awaitingApproval'] !== true) throw new Error(textOf(a));
      return detail.locator(`[data-card="${String(a.structuredContent['card'])}"]`);
    };
    const denied = await ask('message_run', { run: gate, text: 'go faster', delivery: 'Hold', reason: 'nudge' });
    const stale = await ask('control_run', { run: busy, position: await positionOf(s, busy), action: 'Abort', reason: 'stuck' });
    await denied.getByText('Waiting for you').waitFor();
    await stale.getByText('Waiting for you').waitFor();
    await detail.getByRole('heading', { name: 'Approvals (2 open)' }).waitFor();
    await denied.getByLabel('Note (optional)').fill('leave it be');
    await denied.getByRole('button', { name: 'Deny' }).click();
    await denied.locator('.badge', { hasText: 'Denied' }).waitFor();
    await denied.getByText('leave it be').waitFor();
    const moved = await s.post(`/api/runs/${busy}/control`, { position: await positionOf(s, busy), action: 'Pause' });
    t.is(moved.status, 200, JSON.stringify(moved.body));
    await stale.getByRole('button', { name: 'Approve' }).click();
    await stale.locator('.badge', { hasText: 'Stale' }).waitFor();
    t.is((await s.get(`/api/runs/${busy}`)).body.standing, 'Paused', 'the abort was not applied');
    await detail.getByRole('heading', { name: 'Approvals (0 open)' }).waitFor();
    await app.axe(t, 'with decided cards');

    // a refusal shows the server's detail and changes nothing
    await detail.getByLabel('Model').fill('opus');
    await detail.getByRole('button', { name: 'Save settings' }).click();
    t.regex(await detail.locator('.sup-settings [role="alert"]').textContent() ?? '', /model needs harness/);
    t.is((await s.get(`/api/supervisors/${sup.id}`)).body.model, null);
    await detail.getByRole('button', { name: 'Undo changes' }).click();
    t.is(await detail.getByLabel('Model').inputValue(), '');

    // paused for the day
    await detail.getByLabel('Paused for the day').check();
    await detail.getByRole('button', { name: 'Save settings' }).click();
    await detail.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    const paused = (await s.get(`/api/supervisors/${sup.id}`)).body;
    t.truthy(paused.pausedUntil);
    t.is(new Date(paused.pausedUntil).getHours(), 0, 'until local midnight');
    await detail.getByText(/^Paused until /).first().waitFor();
    await page.locator(`[data-roster="${sup.id}"]`, { hasText: 'paused' }).waitFor();

    // a new key, after a warning
    await detail.getByRole('button', { name: 'Regenerate key…' }).click();
    await detail.getByText('A new key replaces this one at once').waitFor();
    await detail.getByRole('button', { name: 'Yes, make a new key' }).click();
    await detail.getByRole('status').filter({ hasText: 'A new key is in place' }).waitFor();
    const fresh = (await s.get(`/api/supervisors/${sup.id}`)).body.key;
    t.not(fresh, sup.key);
    await detail.getByRole('button', { name: 'Show key' }).click();
    t.is(await detail.locator('code.key').textContent(), fresh);

    await app.axe(t, 'at the end');
    app.noErrors(t);
  });
}
