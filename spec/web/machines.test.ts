import '../helpers/env.js';
import test from 'ava';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { worktreeDir } from '../../lib/git/worktrees.js';
import { CLI } from '../helpers/cli.js';
import { eventually, repoRoot, tempDir } from '../helpers/env.js';
import { spawnGroup } from '../helpers/process-groups.js';
import { control, detail, startRun, untilStanding } from '../helpers/steer.js';
import { call, json } from '../mcp/helpers/call.js';
import { mcpServer, type McpServer } from '../mcp/helpers/real.js';
import { closeBrowser, DESKTOP, openApp, PHONE } from './browser.js';
import { shot } from '../helpers/shots.js';

// The Machines page and a moved run (issue 28, docs/workers.md), in real Chromium against a real
// hub: its nats-server, and `svc worker join` as its own process with a home of its own, made from
// the command line the page showed. The worker runs on this machine's loopback in a mount
// namespace where the hub's home is an empty folder (as remote-step.test.ts, without the network
// namespace), so it makes the run folder at the hub's path in a folder of its own. Its steps run
// with the stand-in harness (spec/fixtures/harness) the worker inherits from the test's env.
//
// A run paused here is moved to the worker from its page ("Move to…"); resumed, its step runs on
// the worker: the Machines page lists it under the worker, MCP get_run names the machine, and the
// step's heading says where it ran. Then the worker is revoked after a confirmation.

test.after.always(closeBrowser);

const started: ChildProcess[] = [];
test.after.always(() => { for (const c of started) { try { process.kill(-c.pid!, 'SIGKILL'); } catch { /* gone */ } } });

process.env['SVC_NATS_LISTEN'] = '127.0.0.1:-1';
process.env['SVC_WORKER_TTL_MS'] = '8000';
process.env['SVC_STEP_ACK_WAIT_MS'] = '6000';

let shared: McpServer | null = null;
test.after.always(async () => { await shared?.close(); });

const startWorker = (hubHome: string, command: string) => {
  const [, , , url, token] = command.split(/\s+/);
  const home = tempDir('svc-worker-home-');
  const cover = tempDir('svc-worker-root-');
  const script = 'mount --bind "$1" "$2" && shift 2 && exec "$@"';
  const child = spawnGroup('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script, 'sh', cover, hubHome,
    process.execPath, ...CLI, 'worker', 'join', url!, token!, '--slots', '2'], { cwd: repoRoot, env: { ...process.env, HOME: home, SVC_HOME: join(home, '.svc') }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  return { cover, output: () => out };
};

const fits = (page: import('playwright-core').Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test.serial('Machines page: empty, a join command shown once, the worker online; a paused run moved there runs its step there (desktop)', async (t) => {
  t.timeout(240_000);
  const s = shared = await mcpServer();
  const app = await openApp(t, { viewport: DESKTOP, server: s });
  const { page } = app;
  await app.goto('/machines');
  await page.getByRole('heading', { level: 1, name: 'Machines' }).waitFor();
  await page.locator('[data-empty]').filter({ hasText: 'No other machine has joined yet' }).waitFor();
  const here = page.getByRole('region', { name: /^This machine/ });
  t.regex(await here.textContent() ?? '', /Slots0 in use of \d+/);
  await app.axe(t, 'empty');
  await shot(page, '/tmp/machines-empty-desktop.png', { fullPage: true });

  await page.getByRole('button', { name: 'Add a machine' }).click();
  await page.getByLabel('Name of the machine').fill('desk');
  await page.getByRole('button', { name: 'Make a join command' }).click();
  const command = (await page.locator('.join-command pre code').textContent())!;
  t.regex(command, /^svc worker join nats:\/\/127\.0\.0\.1:\d+ w[0-9a-z]+\.S\S+$/);
  await page.getByRole('button', { name: 'Copy the join command' }).waitFor();
  await app.axe(t, 'join command');
  await shot(page, '/tmp/machines-token-desktop.png', { fullPage: true });
  const workerId = command.split(' ')[4]!.split('.')[0]!;
  const seed = command.split(' ')[4]!.split('.')[1]!;
  t.false(JSON.stringify((await s.get('/api/workers')).body).includes(seed), 'the token is shown once: the list never carries it');

  const worker = startWorker(dirname(s.home), command);
  await page.getByRole('button', { name: 'Done' }).click();
  t.is(await page.locator('.join-command').count(), 0, 'gone once closed');
  const card = page.getByRole('region', { name: 'desk' });
  const t0 = Date.now();
  await card.locator('[data-state="online"]').waitFor({ timeout: 60_000 })
    .catch(async (e: Error) => { throw new Error(`${e.message}\n--- listed ---\n${JSON.stringify((await s.get('/api/workers')).body)}\n--- worker ---\n${worker.output()}`); });
  t.log(`shown online ${Date.now() - t0} ms after the join started`);
  t.regex(await card.textContent() ?? '', /Slots0 in use of 2/);
  t.regex(await card.textContent() ?? '', /claude, codex, opencode/);

  // a run paused here, moved to the worker from its page
  const runId = await startRun(s, { goal: 'Wait for the go-ahead [until:go]', workflow: 'two' });
  await eventually(() => detail(s, runId), (d) => d.standing === 'Running' && d.currentStep === 'work');
  t.is((await control(s, runId, 'Pause')).body.outcome, 'Applied');
  await untilStanding(s, runId, 'Paused');
  await app.goto(`/runs/${runId}`);
  const facts = page.locator('.run-facts [data-machine]');
  await facts.filter({ hasText: 'runs on this machine' }).waitFor();
  const select = page.getByLabel('Move to');
  await page.locator(`.move-to option[value="${workerId}"]`).waitFor({ state: 'attached' });
  await select.selectOption(workerId);
  await page.getByRole('button', { name: 'Move', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Moved: its next steps run on desk.' }).waitFor();
  await page.locator(`.run-facts [data-next="${workerId}"]`).waitFor();
  t.regex(await facts.textContent() ?? '', /next steps on desk \(moved by a person\)/);
  await app.axe(t, 'moved run');
  await shot(page, '/tmp/machines-moved-run-desktop.png', { fullPage: true });

  // resumed: its step is dispatched to the worker and waits there for the go-ahead
  t.is((await control(s, runId, 'Resume')).body.outcome, 'Applied');
  const held = await eventually(() => s.get('/api/workers'), (r) => r.body.workers.some((w: any) => w.workerId === workerId && w.runs.length === 1), 60_000)
    .catch((e: Error) => { throw new Error(`${e.message}\n--- worker ---\n${worker.output()}`); });
  t.like(held.body.workers.find((w: any) => w.workerId === workerId).runs[0], { runId, step: 'work' });
  await app.goto('/machines');
  const runLink = card.getByRole('link', { name: /Wait for the go-ahead/ });
  await runLink.waitFor();
  t.is(await runLink.getAttribute('href'), `/runs/${runId}`);
  await app.axe(t, 'a run on the worker');
  await shot(page, '/tmp/machines-busy-desktop.png', { fullPage: true });

  // MCP get_run names the machine
  const client = await s.connect();
  const got = json<{ run: { machine: any } }>(await call(client, 'get_run', { run: runId }));
  t.like(got.run.machine, { current: { workerId, name: 'desk' }, next: { workerId, name: 'desk' } });
  t.is(got.run.machine.steps.length, 1);
  t.like(got.run.machine.steps[0], { workerId, name: 'desk' });
  t.regex(got.run.machine.steps[0].why, /^moved there by a person/);
  await client.close();

  // the go-ahead, in the worker's own copy of the run folder: the step ends there and the run goes on
  const folder = join(worker.cover, '.svc', 'worktrees', runId, basename(s.repo));
  t.is(worktreeDir(s.home, runId, basename(s.repo)).replace(dirname(s.home), worker.cover), folder);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'go'), 'go\n');
  await untilStanding(s, runId, 'Succeeded', 120_000).catch((e: Error) => { throw new Error(`${e.message}\n--- worker ---\n${worker.output()}`); });
  await app.goto(`/runs/${runId}`);
  const chip = page.locator(`[data-step="work"] [data-step-machine="${workerId}"]`).last();
  await chip.waitFor();
  t.is(await chip.textContent(), 'on desk');
  t.regex(await chip.getAttribute('title') ?? '', /sent there: moved there by a person/);
  await app.axe(t, 'the step that ran on the worker');
  await shot(page, '/tmp/machines-run-steps-desktop.png', { fullPage: true });
  t.true(await fits(page));
  app.noErrors(t);
});

test.serial('Machines page and a moved run on a phone; a worker revoked after a confirmation (phone)', async (t) => {
  t.timeout(240_000);
  const s = shared!;
  const app = await openApp(t, { viewport: PHONE, server: s });
  const { page } = app;
  await app.goto('/machines');
  const card = page.getByRole('region', { name: 'desk' });
  await card.locator('[data-state="online"]').waitFor();
  t.true(await fits(page), 'fits the phone');
  await app.axe(t, 'phone');
  await shot(page, '/tmp/machines-phone.png', { fullPage: true });

  const runId = await startRun(s, { goal: 'Another one [until:go2]', workflow: 'two' });
  await eventually(() => detail(s, runId), (d) => d.standing === 'Running' && d.currentStep === 'work');
  t.is((await control(s, runId, 'Pause')).body.outcome, 'Applied');
  await untilStanding(s, runId, 'Paused');
  await app.goto(`/runs/${runId}`);
  const workerId = (await s.get('/api/workers')).body.workers[0].workerId as string;
  await page.locator(`.move-to option[value="${workerId}"]`).waitFor({ state: 'attached' });
  await page.getByLabel('Move to').selectOption(workerId);
  await page.getByRole('button', { name: 'Move', exact: true }).click();
  await page.locator(`.run-facts [data-next="${workerId}"]`).waitFor();
  t.true(await fits(page), 'the moved run fits the phone');
  await app.axe(t, 'moved run, phone');
  await shot(page, '/tmp/machines-moved-run-phone.png', { fullPage: true });
  t.is((await control(s, runId, 'Abort')).body.outcome, 'Applied');

  // the hub's nats-server dies and cannot start again at once (its port held): the page says the
  // hub's connection is down, with the states as last read; back, the line goes
  await app.goto('/machines');
  await card.locator('[data-state="online"]').waitFor();
  const hubUrl = (await s.get('/api/workers')).body.hub as string;
  const holder = createServer((socket) => socket.destroy());
  t.teardown(() => { holder.close(); });
  process.kill(Number(readFileSync(join(s.home, 'nats', 'nats.pid'), 'utf8')), 'SIGKILL');
  await eventually(() => new Promise<boolean>((resolve) => { holder.once('error', () => resolve(false)); holder.listen(Number(/:(\d+)$/.exec(hubUrl)![1]), '127.0.0.1', () => resolve(true)); }), (bound) => bound, 10_000);
  const down = page.getByRole('status').filter({ hasText: /^The hub lost its connection to NATS at \d\d:\d\d:\d\d and is reconnecting: each machine's state is as last seen/ });
  await down.waitFor({ timeout: 30_000 });
  await card.locator('[data-state="online"]').waitFor();
  t.true(await fits(page), 'the warning fits the phone');
  await app.axe(t, 'the hub not connected, phone');
  await shot(page, '/tmp/machines-hub-down-phone.png', { fullPage: true });
  await page.setViewportSize({ width: DESKTOP.width, height: DESKTOP.height });
  await app.axe(t, 'the hub not connected, desktop');
  await shot(page, '/tmp/machines-hub-down-desktop.png', { fullPage: true });
  await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
  await new Promise((r) => holder.close(r));
  await down.waitFor({ state: 'detached', timeout: 60_000 });
  await card.locator('[data-state="online"]').waitFor({ timeout: 60_000 });

  await card.getByRole('button', { name: 'Revoke desk' }).click();
  const confirm = card.getByRole('group', { name: 'Confirm: Revoke desk' });
  await page.waitForFunction(() => document.activeElement?.textContent === 'Keep it');
  await app.axe(t, 'asking to revoke');
  await confirm.getByRole('button', { name: 'Revoke it' }).click();
  await page.getByRole('status').filter({ hasText: 'desk was revoked.' }).waitFor();
  await card.locator('[data-state="revoked"]').waitFor();
  t.is(await card.getByRole('button', { name: 'Revoke desk' }).count(), 0);
  await shot(page, '/tmp/machines-revoked-phone.png', { fullPage: true });
  app.noErrors(t);
});
