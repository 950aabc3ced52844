// Issue 32, words and weight: a question waited on its run's page only, so a person had to open the
// run to answer it; and a merged run's card carried nothing that said so. Now the card shows the
// prompt with its options as buttons (a free-text question gets a small box), one click answers
// through the answer API and the run goes on; a run merged locally is marked Merged on its card.
// Real Chromium at both sizes with axe, real server, the scripted agent's `[ask:…]` directive.
import test from 'ava';
import { startRun, untilStanding } from '../helpers/steer.js';
import { eventually } from '../helpers/env.js';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';
import { shot } from '../helpers/shots.js';

test.after.always(closeBrowser);

for (const viewport of VIEWPORTS) {
  test.serial(`a question is answered from its board card in one click; a merged run's card says Merged (${viewport.name})`, async (t) => {
    t.timeout(240_000);
    const app = await openApp(t, { viewport });
    const { page, server } = app;
    const choice = await startRun(server, { goal: '[ask:Which colour for the button?|red|blue]', title: 'Pick a colour', workflow: 'linear' });
    const free = await startRun(server, { goal: '[ask:What should the page be called?]', title: 'Name the page', workflow: 'linear' });
    await untilStanding(server, choice, 'Question');
    await untilStanding(server, free, 'Question');

    await app.goto('/');
    const card = page.locator(`.board-row[data-run="${choice}"]`);
    const asks = card.getByRole('group', { name: 'The agent asks: Which colour for the button?' });
    await asks.waitFor({ timeout: 30_000 });
    t.is(await asks.locator('.board-ask').innerText(), 'Which colour for the button?');
    t.deepEqual(await asks.getByRole('button').allInnerTexts(), ['red', 'blue']);
    t.is(await asks.getByRole('textbox').count(), 0, 'a question with options only takes no text');
    const freeCard = page.locator(`.board-row[data-run="${free}"]`);
    const box = freeCard.getByRole('textbox', { name: 'Your answer to: What should the page be called?' });
    await box.waitFor();
    t.true(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scroll');
    await app.axe(t, 'questions on the board');
    await shot(page, `/tmp/board-question-${viewport.width}.png`, { fullPage: true });

    // one click answers; the run goes on and its card no longer asks
    await asks.getByRole('button', { name: 'blue' }).click();
    await untilStanding(server, choice, 'Succeeded');
    await asks.waitFor({ state: 'detached', timeout: 30_000 });
    const answered = await eventually(() => server.get(`/api/runs/${choice}/history?pageSize=200`), (r) => JSON.stringify(r.body).includes('QuestionAnswered'));
    t.regex(JSON.stringify(answered.body), /"answer":\["blue"\]/);

    // the free-text question: type and send
    await box.fill('Welcome');
    await freeCard.getByRole('button', { name: 'Send' }).click();
    await untilStanding(server, free, 'Succeeded');
    await box.waitFor({ state: 'detached', timeout: 30_000 });

    // merged locally: the card says so
    const merge = await server.post(`/api/runs/${choice}/merge`, { method: 'squash' });
    t.is(merge.status, 200, JSON.stringify(merge.body));
    await card.locator('.chip[data-merged]').waitFor({ timeout: 30_000 });
    t.is(await card.locator('.chip[data-merged]').innerText(), 'Merged');
    t.is(await freeCard.locator('.chip[data-merged]').count(), 0, 'a run not merged is not marked');
    await app.axe(t, 'answered and merged');
    app.noErrors(t);
  });
}
