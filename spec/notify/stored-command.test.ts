import '../helpers/env.js';
import test from 'ava';
import { join } from 'node:path';
import { Journal } from '../../journal/journal.js';
import { openStore } from '../../journal/store.js';
import { killHard, spawnServer, type ChildServer } from '../helpers/child-server.js';
import { eventually, freshHome, gitRepo, repoRoot, writeWorkflow } from '../helpers/env.js';
import { GATE_ONLY } from '../helpers/server.js';

// A notification command spawn cannot take never crashes the server: the doors refuse it, and one
// already stored (by an older svc, or by hand) is reported at start and recorded as the command's
// failure at each event, while the server goes on. A real server child process, as a crash would be seen.

const RECORD = join(repoRoot, 'spec/fixtures/notify/record.mjs');
const json = async (url: string, init?: RequestInit) => (await fetch(url, init)).json() as Promise<any>;
const send = (url: string, method: string, body: unknown) => fetch(url, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const BAD: readonly [string, string[], RegExp][] = [
  ['a NUL byte in an argument', [process.execPath, RECORD, 'x\u0000y'], /NUL/],
  ['a NUL byte in the program', ['/bin/tr\u0000ue'], /NUL/],
  ['a program that is a relative path', ['./notify.sh'], /absolute path or a plain name/],
  ['a program with blanks around it', [' notify-send'], /absolute path or a plain name/],
];

const gateRun = async (s: ChildServer, project: string): Promise<string> =>
  (await (await send(`${s.url}/api/runs`, 'POST', { project, goal: 'wait', workflow: 'gate' })).json() as any).runId;

for (const [name, argv, detail] of BAD) {
  test.serial(`refused at the door: ${name}`, async (t) => {
    const home = freshHome();
    const s = await spawnServer(home);
    t.teardown(() => { s.child.kill('SIGKILL'); });
    const r = await send(`${s.url}/api/settings`, 'PUT', { _tag: 'NotifyCommand', argv, kinds: ['gate'] });
    const body = await r.json() as any;
    t.is(r.status, 400, JSON.stringify(body));
    t.regex(String(body.detail), detail);
    t.is((await json(`${s.url}/api/settings`)).notifyCommand, null, 'nothing was stored');
  });

  test.serial(`stored already: ${name} is reported at start and recorded at each event, never fatal`, async (t) => {
    t.timeout(120_000);
    const home = freshHome();
    writeWorkflow(home, 'gate', GATE_ONLY);
    // as an older svc stored it: straight into the settings journal
    const store = openStore(join(home, 'db'));
    new Journal(store).append('settings', 0, [{ type: 'SettingChanged', data: { change: { _tag: 'NotifyCommand', argv, kinds: ['gate'] }, source: { via: 'http', sender: null } } }], new Date().toISOString());
    await store.close();
    for (let start = 1; start <= 2; start++) {
      const s = await spawnServer(home);
      t.teardown(() => { s.child.kill('SIGKILL'); });
      const project = start === 1
        ? ((await (await send(`${s.url}/api/projects`, 'POST', { name: 'p', folders: [{ path: gitRepo() }] })).json()) as any).id
        : (await json(`${s.url}/api/projects`))[0].id;
      const runId = await gateRun(s, project);
      const failure = await eventually(async () => (await json(`${s.url}/api/settings/notify-command`)).lastFailure, (f) => f?.runId === runId, 30_000);
      t.regex(failure.detail, detail);
      t.is((await json(`${s.url}/api/runs/${runId}`)).phase, 'AtGate', 'the run waits at its gate, the server still up');
      t.is(s.child.exitCode, null);
      t.regex(String((await json(`${s.url}/api/settings/notify-command`)).problem), detail);
      t.regex(s.output(), /the notification command stored in Settings cannot run/);
      await killHard(s);
    }
  });
}
