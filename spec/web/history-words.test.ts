// Issue 32, words: the History tab was raw JSON events with sequence numbers and type names. Now
// each event is a sentence a person would write, and the raw form is one click away ("Show raw
// events"). Real Chromium at both sizes with axe, real server, a run of the scripted agent that
// asks, is answered and succeeds, then is restarted (the restart is named by its title).
import test from 'ava';
import { RUN_EVENT_CODECS } from '../../journal/run-events.js';
import { eventLabel, historyWords } from '../../lib/web/run/history-words.js';
import { eventually } from '../helpers/env.js';
import { control, detail, startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

test.after.always(closeBrowser);

const TYPE_NAMES = Object.keys(RUN_EVENT_CODECS);

test('every run event type has its own sentence, not the fallback; a type with none still reads as words', (t) => {
  const at = '2026-11-27T10:00:00.000Z';
  const fallbacks = TYPE_NAMES.filter((type) => historyWords({ seq: 1, at, type, data: { node: 'x' } }, (id) => id) === `${eventLabel(type)}.`);
  t.deepEqual(fallbacks, [], 'each type is in the words table');
  t.is(historyWords({ seq: 1, at, type: 'SomethingNewHappened', data: { x: 1 } }, (id) => id), 'Something new happened.');
  t.is(historyWords({ seq: 1, at, type: 'StepStarted', data: { node: 'work', harness: 'claude', attempt: 2, stepId: 's1', kind: 'agent' } }, (id) => id), 'Step work started on claude (attempt 2).');
  t.is(historyWords({ seq: 1, at, type: 'RunRestarted', data: { as: 'r2', by: { kind: 'person' } } }, (id) => (id === 'r2' ? 'Second go' : id)), 'A person restarted the run as “Second go”.');
  t.is(historyWords({ seq: 1, at, type: 'RunPaused', data: 'not an object' }, (id) => id), 'Someone paused the run.', 'data of another shape leaves a plainer sentence');
});

for (const viewport of VIEWPORTS) {
  test.serial(`History says each event in words, the raw events one click away (${viewport.name})`, async (t) => {
    t.timeout(240_000);
    const app = await openApp(t, { viewport });
    const { page, server } = app;
    const runId = await startRun(server, { goal: '[ask:Which colour?|red|blue]', title: 'Pick a colour', workflow: 'linear' });
    const asked = await untilStanding(server, runId, 'Question');
    const r = await server.post(`/api/runs/${runId}/answers`, { question: asked.question.id, answer: ['blue'] });
    t.is(r.status, 200, JSON.stringify(r.body));
    await untilStanding(server, runId, 'Succeeded');
    const restarted = await control(server, runId, 'Restart');
    t.is(restarted.body?.outcome, 'Applied', JSON.stringify(restarted.body));
    const again = await eventually(() => detail(server, runId), (d) => (d.linked && Object.keys(d.linked).length > 0));

    await app.goto(`/runs/${runId}?tab=history`);
    const list = page.getByRole('list', { name: 'History' });
    await list.getByText(/restarted the run as/).waitFor({ timeout: 30_000 });
    const rows = (await list.locator('li').allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
    const text = rows.join('\n');
    for (const type of TYPE_NAMES) t.false(new RegExp(`\\b${type}\\b`).test(text), `no type name ${type}: ${text}`);
    t.notRegex(text, /#\d/, 'no sequence numbers');
    t.notRegex(text, /[{}]/, 'no JSON');
    const title = (Object.values(again.linked)[0] as { title: string }).title;
    for (const sentence of [/created the run “Pick a colour”\./, /The run started at step work\./, /Step work started on \w+\./,
      /The agent asked: Which colour\? \(red, blue\)\./, /answered: blue\./, /The run succeeded/, new RegExp(`restarted the run as “${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}”\\.`)]) {
      t.true(rows.some((row) => sentence.test(row)), `a row says ${sentence}: ${text}`);
    }
    await app.axe(t, 'history in words');
    t.true(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scroll');
    await shot(page, `/tmp/history-words-${viewport.width}.png`, { fullPage: true });

    // one click shows the raw events: sequence numbers, type names and data
    const toggle = page.getByRole('button', { name: 'Show raw events' });
    await toggle.click();
    t.is(await toggle.getAttribute('aria-pressed'), 'true');
    await list.getByText('QuestionAnswered', { exact: true }).waitFor();
    t.regex(await list.locator('li').first().innerText(), /#1 .*RunCreated/);
    t.regex(await list.innerText(), /"answer":\["blue"\]/);
    await app.axe(t, 'raw history');
    await toggle.click();
    await list.getByText('QuestionAnswered', { exact: true }).waitFor({ state: 'detached' });
    app.noErrors(t);
  });
}
