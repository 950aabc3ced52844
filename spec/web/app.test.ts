import '../helpers/env.js';
import test from 'ava';
import { launch } from '../helpers/browser.js';
import { testServer } from '../helpers/server.js';

const GATED = `digraph gated {
  start [kind=start]
  first [kind=agent, prompt="{{goal}}"]
  review [kind=gate]
  nap [kind=wait, duration="1h"]
  done [kind=exit]
  start -> first -> review -> nap -> done
}`;

test('a person starts a run in the browser, passes its gate and its wait, and sees it succeed', async (t) => {
  const s = await testServer({ workflows: { gated: GATED } });
  t.teardown(() => s.close());
  const browser = await launch();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(s.url);
  await page.waitForSelector('#health:has-text("projects")');
  await page.selectOption('select[name=workflow]', 'gated');
  const evil = 'Fix it <img src=x onerror="document.title=\'pwned\'">';
  await page.fill('textarea[name=goal]', evil);
  await page.fill('input[name=title]', 'Browser run');
  await page.click('button[type=submit]');
  await page.waitForURL(/\/runs\/r/);
  await page.waitForSelector('.controls button:has-text("Resume")', { timeout: 20_000 });
  t.is(await page.textContent('h1'), 'Browser run');
  t.is(await page.locator('p.goal').first().textContent(), evil, 'run text is shown as text');
  t.is(await page.locator('#view img').count(), 0);
  await page.click('.controls button:has-text("Resume")');
  await page.waitForSelector('.controls button:has-text("SkipWait")', { timeout: 20_000 });
  await page.click('.controls button:has-text("SkipWait")');
  await page.waitForSelector('#view .badge.Succeeded', { timeout: 20_000 });
  await page.waitForSelector('#runs .badge.Succeeded');
  const thread = await page.locator('.thread li').allTextContents();
  t.true(thread.some((row) => row.includes('resumed')));
  t.not(await page.title(), 'pwned');
  t.deepEqual(errors, []);
  t.notRegex((await page.textContent('#view')) ?? '', /null|undefined/);
  await page.screenshot({ path: '/tmp/svc-app.png', fullPage: true });
});

test('the app says what went wrong when a run cannot start', async (t) => {
  const s = await testServer();
  t.teardown(() => s.close());
  const browser = await launch();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  await page.goto(s.url);
  await page.waitForSelector('select[name=workflow] option', { state: 'attached' });
  await page.fill('textarea[name=goal]', 'x');
  await page.evaluate(() => { (document.querySelector('input[name=title]') as HTMLInputElement).value = 'a'.repeat(80) + 'b'; });
  await page.click('button[type=submit]');
  const error = page.locator('#new-run .error');
  await error.waitFor({ state: 'visible' });
  t.regex((await error.textContent()) ?? '', /title/);
});
