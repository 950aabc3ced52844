// Issue 32, words: a paused run read "running for …" on the board, a gate step "running" in the
// thread, the header "phase AtGate" and, once ended, "step done"; tool calls that are plumbing
// (the CLI's ToolSearch, svc.report_outcome) were cards named by their code words. Real Chromium,
// real server; a run of the gate workflow waits at its gate (Paused, phase AtGate).
import test from 'ava';
import { eventually } from '../helpers/env.js';
import { GATE_ONLY } from '../helpers/server.js';
import { detail, startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

test.after.always(closeBrowser);

for (const viewport of VIEWPORTS) {
  test.serial(`a paused run and a gate step are not "running"; no engine words in the header or on cards (${viewport.name})`, async (t) => {
    t.timeout(180_000);
    const app = await openApp(t, { viewport, workflows: { gate: GATE_ONLY } });
    const { page, server } = app;
    const runId = await startRun(server, { workflow: 'gate', goal: 'Wait at the gate', title: 'Gated' });
    await eventually(() => detail(server, runId), (d) => d.phase === 'AtGate', 60_000);
    const now = new Date().toISOString();
    const log = server.service.core.logs.activity;
    log.record(runId, 's99', { phase: 'started', callId: 'c1', tool: 'ToolSearch', kind: 'other', title: 'select:Bash', at: now }, now);
    log.record(runId, 's99', { phase: 'ended', callId: 'c1', status: 'ok', output: 'Bash', at: now }, now);
    log.record(runId, 's99', { phase: 'started', callId: 'c2', tool: 'mcp__svc__report_outcome', kind: 'mcp', title: 'svc.report_outcome', at: now }, now);
    log.record(runId, 's99', { phase: 'ended', callId: 'c2', status: 'ok', output: 'recorded', at: now }, now);

    // the board: paused, not running
    await app.goto('/');
    const row = page.locator(`.board-row[data-run="${runId}"]`);
    await row.waitFor();
    const times = await row.locator('.board-times').innerText();
    t.notRegex(times, /running/, times);
    t.regex(times, /paused, started .* ago/);

    // the run page: the gate step waits for a person; the header says where the run is in words
    await app.goto(`/runs/${runId}`);
    const thread = page.getByRole('list', { name: 'Thread' });
    const gate = thread.locator('li.step-group[data-step="review"]');
    await gate.waitFor({ timeout: 30_000 });
    t.regex(await gate.locator('.step-end').innerText(), /^waiting for you/);
    const facts = await page.locator('.run-facts').innerText();
    t.notRegex(facts, /phase|AtGate/, facts);
    t.regex(facts, /at a gate, waiting for you/);
    t.regex(facts, /at step review/);
    const cards = await thread.locator('li.card summary').allInnerTexts();
    t.deepEqual(cards.map((c) => c.replace(/\s+/g, ' ').trim()), ['Looked up the tools it can use done', 'Reported how the step went done']);
    // the raw form is one click away
    await thread.locator('li.card summary').first().click();
    t.regex(await thread.locator('li.card .card-meta').first().innerText(), /ToolSearch select:Bash/);
    await shot(page, `/tmp/plain-words-${viewport.width}.png`, { fullPage: true });
    await app.axe(t, 'a run at a gate');

    // ended: no "step done"
    const r = await server.post(`/api/runs/${runId}/control`, { position: (await detail(server, runId)).position, action: 'Resume' });
    t.is(r.status, 200, JSON.stringify(r.body));
    await untilStanding(server, runId, 'Succeeded');
    await page.locator('.run-facts .badge', { hasText: 'Succeeded' }).waitFor({ timeout: 30_000 });
    t.notRegex(await page.locator('.run-facts').innerText(), /step done/);
    app.noErrors(t);
  });
}
