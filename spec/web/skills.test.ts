import test from 'ava';
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeBrowser, openApp, VIEWPORTS } from './browser.js';

// The Skills page in real Chromium against a real server: a bundled skill installed for a harness
// from the page, shown installed with its version, the file it wrote checked under the test's temp
// HOME (spec/helpers/env.ts); the copy then changed on disk, seen with Check again, and replaced
// only after a confirmation, the changed copy kept as a backup in the svc home.
//
// Both tests share this file's HOME, so each installs for its own harness.

test.after.always(closeBrowser);

const HOME = process.env['HOME']!;
const FOLDER = { claude: join(HOME, '.claude', 'skills', 'svc-mcp'), codex: join(HOME, '.agents', 'skills', 'svc-mcp') } as const;

const cases = [[VIEWPORTS[0]!, 'claude'], [VIEWPORTS[1]!, 'codex']] as const;

for (const [viewport, harness] of cases) {
  test.serial(`svc-mcp installed for ${harness}, shown with its version, a changed copy replaced after a confirmation (${viewport.name})`, async (t) => {
    const app = await openApp(t, { viewport });
    const { page, server } = app;
    const stateOf = async () => (await server.get('/api/skills')).body.skills.find((s: { name: string }) => s.name === 'svc-mcp')
      .harnesses.find((h: { harness: string }) => h.harness === harness);
    const version = (await server.get('/api/skills')).body.skills.find((s: { name: string }) => s.name === 'svc-mcp').version as string;
    t.like(await stateOf(), { supported: true, folder: FOLDER[harness], installed: { _tag: 'NotInstalled' } });

    await app.goto('/skills');
    await page.getByRole('heading', { level: 1, name: 'Skills' }).waitFor();
    const card = page.getByRole('region', { name: 'svc-mcp' });
    t.regex(await card.textContent() ?? '', new RegExp(`version ${version.replace(/\./g, '\\.')}`));
    const row = card.getByRole('list', { name: 'svc-mcp by harness' }).locator(`[data-harness="${harness}"]`);
    t.is(await row.locator('[data-state]').textContent(), 'Not installed');
    t.is(await row.locator('code').textContent(), FOLDER[harness]);
    await app.axe(t, 'not installed');
    t.true(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `fits ${viewport.name}`);

    await row.getByRole('button', { name: `Install: svc-mcp for ${harness}` }).click();
    await card.getByRole('status').filter({ hasText: `Installed svc-mcp ${version} for ${harness}` }).waitFor();
    await row.locator('[data-state="Installed"]').filter({ hasText: `Installed ${version}, up to date` }).waitFor();
    t.is(await row.getByRole('button').count(), 0, 'nothing to do for an up-to-date copy');
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'status'); // the keyboard lands on what happened
    t.like(await stateOf(), { installed: { _tag: 'Installed', version, upToDate: true } });
    const skillMd = readFileSync(join(FOLDER[harness], 'SKILL.md'), 'utf8');
    t.regex(skillMd, /^---\nname: svc-mcp\n/);
    t.true(skillMd.includes(`version: "${version}"`) || skillMd.includes(`version: ${version}`), skillMd.slice(0, 400));
    await app.axe(t, 'installed');

    // the copy changed outside svc: Check again shows it, and replacing it asks first
    appendFileSync(join(FOLDER[harness], 'SKILL.md'), '\nMy own note.\n');
    await page.getByRole('button', { name: 'Check again' }).click();
    await row.locator('[data-state="Changed"]').waitFor();
    await row.getByRole('button', { name: `Replace with ${version}…: svc-mcp for ${harness}` }).click();
    const confirm = row.getByRole('group', { name: `Confirm replacing svc-mcp for ${harness}` });
    await page.waitForFunction(() => document.activeElement?.textContent === 'Keep mine'); // the keyboard is on the safe answer
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    await page.waitForFunction((name) => document.activeElement?.getAttribute('aria-label') === name, `Replace with ${version}…: svc-mcp for ${harness}`); // back on the button
    t.true(readFileSync(join(FOLDER[harness], 'SKILL.md'), 'utf8').endsWith('My own note.\n'), 'Keep mine keeps it');
    await page.keyboard.press('Enter');
    await confirm.waitFor();
    await app.axe(t, 'asking to replace');
    await confirm.getByRole('button', { name: 'Replace my copy' }).click();
    await card.getByRole('status').filter({ hasText: 'Your copy was moved to' }).waitFor();
    await row.locator('[data-state="Installed"]').waitFor();
    t.is(readFileSync(join(FOLDER[harness], 'SKILL.md'), 'utf8'), skillMd);
    const backups = readdirSync(join(server.home, 'skill-backups')).filter((d) => d.startsWith(`${harness}-svc-mcp-`));
    t.is(backups.length, 1);
    t.true(readFileSync(join(server.home, 'skill-backups', backups[0]!, 'SKILL.md'), 'utf8').endsWith('My own note.\n'));
    t.like(await stateOf(), { installed: { _tag: 'Installed', version, upToDate: true } });
    // the tests run in order: when claude's runs, nothing was installed for codex
    if (harness === 'claude') t.false(existsSync(FOLDER.codex), 'only for the harness asked for');
    app.noErrors(t);
  });
}
