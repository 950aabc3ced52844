import test from 'ava';
import { startRun, untilStanding } from '../helpers/steer.js';
import { closeBrowser, openApp, PHONE, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

// The run pickers (the run page's "Compare with…", the Compare page's Run A and Run B) name each run
// as a person knows it: its title, with what tells two of one title apart (the agent, the attempt,
// when it started, in local time), never its id; the id is in the option's tooltip, as on a link
// to a run (lib/web/ui/run-link.tsx). Picking one still opens Compare with that run.

test.after.always(closeBrowser);

const TITLE = 'Tidy the README';

for (const viewport of VIEWPORTS) {
  // one size in each theme: the native select's options are drawn in the theme's colours
  const colorScheme = viewport === PHONE ? 'dark' : 'light';
  test(`run pickers name runs by title, told apart, never by id (${viewport.name}, ${colorScheme})`, async (t) => {
    const app = await openApp(t, { viewport, colorScheme });
    const { page, server } = app;
    // two attempts of one title on two agents, and two runs of that title on one agent, not started
    const r = await server.post('/api/runs', { project: server.projectId, workflow: 'linear', goal: '[write:a.txt=x][report:success]', title: TITLE, attempts: [{ harness: 'claude' }, { harness: 'codex' }] });
    t.is(r.status, 200, JSON.stringify(r.body));
    const [first, second] = (r.body.attempts as { runId: string }[]).map((x) => x.runId);
    const third = await startRun(server, { goal: 'g', title: TITLE, workflow: 'linear', harness: 'claude', start: false });
    const fourth = await startRun(server, { goal: 'g', title: TITLE, workflow: 'linear', harness: 'claude', start: false });
    const ids = [first!, second!, third, fourth];
    for (const id of [first!, second!]) await untilStanding(server, id, 'Succeeded');

    const optionsOf = (name: string) => page.getByRole('combobox', { name }).locator('option:not([value=""])')
      .evaluateAll((els) => els.map((e) => ({ value: (e as HTMLOptionElement).value, text: e.textContent ?? '', tip: e.getAttribute('title') ?? '' })));
    const check = (options: { value: string; text: string; tip: string }[], n: number) => {
      t.is(options.length, n);
      for (const o of options) {
        for (const id of ids) t.false(o.text.includes(id), `no run id in "${o.text}"`);
        t.true(o.text.startsWith(TITLE), `the title first: "${o.text}"`);
        t.true(o.tip.includes(o.value), `the id in the tooltip: "${o.tip}"`);
      }
      t.is(new Set(options.map((o) => o.text)).size, n, `each run told apart: ${options.map((o) => o.text).join(' | ')}`);
    };

    await app.goto(`/runs/${first}`);
    await page.getByRole('button', { name: 'Compare with…' }).click();
    const picker = page.getByRole('combobox', { name: 'Compare with' });
    await picker.locator(`option[value="${fourth}"]`).waitFor({ state: 'attached' });
    const options = await optionsOf('Compare with');
    check(options, 3);
    t.log(options.map((o) => o.text).join(' | '));
    // the attempt on the other agent says so; the two runs not started say when they were made
    t.regex(options.find((o) => o.value === second)!.text, /codex.*attempt 2 of 2/);
    await app.axe(t, 'the Compare with picker');
    await shot(page, `/tmp/shots/run-picker-${viewport.width}-${colorScheme}.png`, { fullPage: true });

    // picking by what the person reads opens Compare with that run
    await picker.selectOption({ label: options.find((o) => o.value === third)!.text });
    await page.getByRole('form', { name: 'Compare with another run' }).getByRole('button', { name: 'Compare' }).click();
    await page.waitForURL((u) => u.pathname === '/compare' && u.searchParams.get('a') === first && u.searchParams.get('b') === third);
    await page.getByRole('combobox', { name: 'Run B' }).locator(`option[value="${fourth}"]`).waitFor({ state: 'attached' });
    check(await optionsOf('Run A'), 3);
    check(await optionsOf('Run B'), 3);
    t.is(await page.getByRole('combobox', { name: 'Run B' }).inputValue(), third);
    // the Compare page's own pickers change the pair the same way
    await page.getByRole('combobox', { name: 'Run B' }).selectOption({ label: options.find((o) => o.value === second)!.text });
    await page.waitForURL((u) => u.searchParams.get('b') === second);
    await page.getByRole('heading', { level: 2, name: 'B: codex' }).waitFor();
    await app.axe(t, 'the Compare page pickers');
    app.noErrors(t);
  });
}
