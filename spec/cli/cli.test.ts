import '../helpers/env.js';
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, gitRepo, repoRoot, tempDir, writeWorkflow } from '../helpers/env.js';
import { CLI, runCli, type CliResult } from '../helpers/cli.js';
import { LINEAR } from '../helpers/server.js';

// The real CLI in child processes, each with its own HOME and SVC_HOME.


const newHome = () => {
  const home = tempDir('svc-cli-');
  return { home, svc: join(home, '.svc') };
};

const envOf = (h: { home: string; svc: string }) => ({ ...process.env, HOME: h.home, SVC_HOME: h.svc });

const svc = (h: { home: string; svc: string }, ...args: string[]): Promise<CliResult> => runCli(envOf(h), args);

interface Serving { readonly url: string; readonly child: ChildProcess; readonly exited: Promise<number | null> }

const serve = (h: { home: string; svc: string }): Promise<Serving> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, 'serve', '--port', '0'], { cwd: repoRoot, env: envOf(h), stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    let out = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`no "serving at" line: ${out}`)); }, 60_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      const m = /serving at (http:\/\/\S+)/.exec(out);
      if (m) { clearTimeout(timer); resolve({ url: m[1]!, child, exited }); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`serve exited with ${code}: ${out}`)); });
  });

const stop = async (s: Serving): Promise<number | null> => {
  if (s.child.exitCode !== null) return s.child.exitCode;
  s.child.kill('SIGTERM');
  return s.exited;
};

const mode = (path: string) => statSync(path).mode & 0o777;

test('project add without a server, then serve, start, runs, run; SIGTERM removes server.json', async (t) => {
  const h = newHome();
  const repo = gitRepo();
  writeWorkflow(h.svc, 'linear', LINEAR);

  const added = await svc(h, 'project', 'add', 'demo', repo);
  t.is(added.code, 0, added.stderr);
  t.is(added.stdout.trim(), 'demo');
  t.false(existsSync(join(h.svc, 'server.json')));
  const dup = await svc(h, 'project', 'add', 'demo', gitRepo());
  t.is(dup.code, 1);
  t.regex(dup.stderr, /exists already/);
  const notGit = await svc(h, 'project', 'add', 'plain', tempDir('svc-plain-'));
  t.is(notGit.code, 1);
  t.regex(notGit.stderr, /not a git folder/);
  const list = await svc(h, 'project', 'list');
  t.is(list.code, 0, list.stderr);
  t.regex(list.stdout, /^demo {2}demo {2}/m);

  const s = await serve(h);
  t.teardown(() => { if (s.child.exitCode === null) s.child.kill('SIGKILL'); });
  const record = join(h.svc, 'server.json');
  t.is(mode(record), 0o600);
  t.is(mode(h.svc), 0o700);
  t.is(mode(join(h.svc, 'db', 'data.mdb')), 0o600);
  t.is(mode(join(h.svc, 'db', 'lock.mdb')), 0o600);
  // {base_url}: the spec appends `api/...` to it directly
  t.regex(s.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  t.is(JSON.parse(readFileSync(record, 'utf8')).url, s.url);
  const projects = (await (await fetch(`${s.url}api/projects`)).json()) as { id: string; folders: { path: string }[] }[];
  t.deepEqual(projects.map((p) => [p.id, p.folders[0]!.path]), [['demo', realpathSync(repo)]]);

  const twice = await svc(h, 'serve', '--port', '0');
  t.is(twice.code, 1);
  t.regex(twice.stderr, /already running/);

  const started = await svc(h, 'start', 'demo', 'write [write:cli.txt=hi]', '--workflow', 'linear', '--title', 'from the cli');
  t.is(started.code, 0, started.stderr);
  const [runId, url] = started.stdout.trim().split(/\s+/);
  t.truthy(runId);
  t.is(url, `${s.url}runs/${runId}`);

  const nowhere = await svc(h, 'start', 'nope', 'a goal');
  t.is(nowhere.code, 1);
  t.regex(nowhere.stderr, /unknown project: nope/);

  const runs = await svc(h, 'runs');
  t.is(runs.code, 0, runs.stderr);
  t.regex(runs.stdout, new RegExp(`^${runId} .* demo {2}from the cli$`, 'm'));

  await eventually(async () => ((await (await fetch(`${s.url}api/runs/${runId}`)).json()) as { standing: string }).standing, (x) => x === 'Succeeded', 30_000);
  const one = await svc(h, 'run', runId!);
  t.is(one.code, 0, one.stderr);
  t.like(JSON.parse(one.stdout), { id: runId, standing: 'Succeeded', title: 'from the cli', goal: 'write [write:cli.txt=hi]', workflow: 'linear' });
  const unknown = await svc(h, 'run', 'r-nope');
  t.is(unknown.code, 1);
  t.regex(unknown.stderr, /unknown run/);

  // With the server up, a project goes through its API, so the server sees it at once.
  const other = await svc(h, 'project', 'add', 'other', gitRepo());
  t.is(other.code, 0, other.stderr);
  const after = (await (await fetch(`${s.url}api/projects`)).json()) as { id: string }[];
  t.deepEqual(after.map((p) => p.id).sort(), ['demo', 'other']);

  t.is(await stop(s), 0);
  t.false(existsSync(record));
});

test('a stale server.json: client commands say no server is running (exit 1) and serve still starts', async (t) => {
  const h = newHome();
  mkdirSync(h.svc, { recursive: true, mode: 0o700 });
  const record = join(h.svc, 'server.json');
  writeFileSync(record, JSON.stringify({ url: 'http://127.0.0.1:9', pid: 2 ** 22 + 7 }), { mode: 0o600 });
  for (const args of [['runs'], ['start', 'demo', 'a goal'], ['run', 'r-1']]) {
    const r = await svc(h, ...args);
    t.is(r.code, 1, args.join(' '));
    t.regex(r.stderr, /no server is running/, args.join(' '));
  }
  const s = await serve(h);
  t.teardown(() => { if (s.child.exitCode === null) s.child.kill('SIGKILL'); });
  t.is(JSON.parse(readFileSync(record, 'utf8')).url, s.url);
  t.is(mode(record), 0o600);
  const runs = await svc(h, 'runs');
  t.is(runs.code, 0, runs.stderr);
  t.is(runs.stdout, 'no runs\n');
  t.is(await stop(s), 0);
  t.false(existsSync(record));
});

test('svc mcp token prints the token, kept owner-only; again the same one; --regenerate replaces it', async (t) => {
  const h = newHome();
  const first = await svc(h, 'mcp', 'token');
  t.is(first.code, 0, first.stderr);
  const token = first.stdout.trim();
  t.true(token.length >= 16);
  t.false(token.includes('\n'));
  const file = join(h.svc, 'mcp-token');
  t.is(mode(file), 0o600);
  t.is(readFileSync(file, 'utf8').trim(), token);
  const again = await svc(h, 'mcp', 'token');
  t.is(again.stdout.trim(), token);
  const fresh = await svc(h, 'mcp', 'token', '--regenerate');
  t.is(fresh.code, 0);
  t.not(fresh.stdout.trim(), token);
  t.is(readFileSync(file, 'utf8').trim(), fresh.stdout.trim());
  t.is(mode(file), 0o600);
});

test('an unknown command prints the usage and exits 2; serve refuses a flag without its value', async (t) => {
  const h = newHome();
  const r = await svc(h, 'frobnicate');
  t.is(r.code, 2);
  t.regex(r.stderr, /unknown command: frobnicate/);
  t.regex(r.stderr, /usage:/);
  // usage errors (exit 2 with the usage); spec/cli/usage.test.ts has the full table
  for (const args of [['--port'], ['--port', '1.5'], ['--port', '0', '--bind']]) {
    const bad = await svc(h, 'serve', ...args);
    t.is(bad.code, 2, args.join(' '));
    t.regex(bad.stderr, args[0] === '--port' && args[1] === '1.5' ? /--port takes/ : args.includes('--bind') ? /--bind needs a value/ : /--port needs a value/);
    t.regex(bad.stderr, /usage: svc serve/);
  }
  t.false(existsSync(join(h.svc, 'server.json')));
});

test('SIGTERM with a turn in flight: exit 0, the record goes; the next serve runs the step again to success', async (t) => {
  const h = newHome();
  writeWorkflow(h.svc, 'linear', LINEAR);
  t.is((await svc(h, 'project', 'add', 'demo', gitRepo())).code, 0);
  const first = await serve(h);
  t.teardown(() => { if (first.child.exitCode === null) first.child.kill('SIGKILL'); });
  const post = await fetch(`${first.url}api/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project: 'demo', goal: 'slow [sleepfresh:60000] [write:done.txt=1]', workflow: 'linear' }) });
  const { runId } = (await post.json()) as { runId: string };
  const read = async (url: string, path: string) => (await (await fetch(`${url}${path}`)).json()) as any;
  await eventually(() => read(first.url, `api/runs/${runId}/history?pageSize=200`), (p) => p.events.some((e: { type: string }) => e.type === 'StepStarted'));
  t.is(await stop(first), 0);
  t.false(existsSync(join(h.svc, 'server.json')));

  const second = await serve(h);
  t.teardown(() => { if (second.child.exitCode === null) second.child.kill('SIGKILL'); });
  const done = await eventually(() => read(second.url, `api/runs/${runId}/detail`), (d) => ['Succeeded', 'Failed', 'Aborted'].includes(d.standing), 30_000);
  t.is(done.standing, 'Succeeded');
  const types = (await read(second.url, `api/runs/${runId}/history?pageSize=200`)).events.map((e: { type: string }) => e.type);
  t.is(types.filter((x: string) => x === 'StepInterrupted').length, 1);
  t.is(types.filter((x: string) => x === 'StepStarted').length, 2);
  t.is(await stop(second), 0);
});
