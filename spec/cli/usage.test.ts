import '../helpers/env.js';
import test from 'ava';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../lib/cli/main.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/env.js';

// Every command's --help (usage on stdout, exit 0) and its refusals: an unknown flag, a flag
// without its value, a value on a switch, too few or too many words are usage errors: the
// command's usage on stderr, exit 2, and nothing done. The real CLI, each row in its own homes.

type Result = { code: number | null; stdout: string; stderr: string; svcHome: string };

const freshHome = () => join(tempDir('svc-usage-'), '.svc');

// The table goes through main() in this process (forty tsx start-ups would take minutes on two
// cores); the last rows run the real executable for its exit codes and streams.
const svc = async (...args: string[]): Promise<Result> => {
  const svcHome = freshHome();
  process.env.SVC_HOME = svcHome;
  let stdout = '';
  let stderr = '';
  const code = await main(args, { out: (s) => (stdout += s), err: (s) => (stderr += s) });
  return { code, stdout, stderr, svcHome };
};

const spawnSvc = async (...args: string[]): Promise<Result> => {
  const svcHome = freshHome();
  return { ...(await runCli({ ...process.env, HOME: join(svcHome, '..'), SVC_HOME: svcHome }, args)), svcHome };
};

const HELP: readonly (readonly [args: string[], synopsis: RegExp])[] = [
  [['serve', '--help'], /^usage: svc serve \[--port N\] \[--bind ADDR\]$/m],
  [['app', '--help'], /^usage: svc app \[--port N\]$/m],
  [['project', 'add', '--help'], /^usage: svc project add NAME PATH \[PATH\.\.\.\]$/m],
  [['project', 'list', '-h'], /^usage: svc project list$/m],
  [['project', '--help'], /^usage: svc project add .*\n(.*\n)*usage: svc project list$/m],
  [['start', '--help'], /^usage: svc start PROJECT GOAL\.\.\. \[--workflow W\]/m],
  [['runs', '--help'], /^usage: svc runs$/m],
  [['doctor', '--help'], /^usage: svc doctor\n {2}check that runs can start: the server, and each agent CLI/m],
  [['-h'], /^ {2}svc doctor\n {6}check that runs can start/m],
  [['run', '--help'], /^usage: svc run RUN_ID$/m],
  [['mcp', 'token', '--help'], /^usage: svc mcp token \[--regenerate\]$/m],
  [['start', 'demo', 'a goal', '--help'], /^usage: svc start /m],
  [['help', 'run'], /^usage: svc run RUN_ID$/m],
  [['--help'], /^usage:\n {2}svc serve /],
  [['help'], /^usage:\n {2}svc serve /],
];

for (const [args, synopsis] of HELP) {
  test.serial(`svc ${args.join(' ')} → usage on stdout, exit 0`, async (t) => {
    const r = await svc(...args);
    t.is(r.code, 0, r.stderr);
    t.regex(r.stdout, synopsis);
    t.is(r.stderr, '');
    t.false(existsSync(r.svcHome), 'help touches nothing');
  });
}

const REFUSED: readonly (readonly [args: string[], problem: RegExp, usage: RegExp])[] = [
  [['serve', '--nope'], /^svc: unknown option --nope/, /usage: svc serve/],
  [['serve', '--port'], /^svc: --port needs a value$/m, /usage: svc serve/],
  [['serve', '--port', '--bind', '127.0.0.1'], /^svc: --port needs a value/, /usage: svc serve/],
  [['serve', '--port', '70000'], /^svc: --port takes a number from 0 to 65535$/m, /usage: svc serve/],
  [['serve', '-p', '0'], /^svc: unknown option -p/, /usage: svc serve/],
  [['serve', 'extra'], /^svc: unexpected argument: extra$/m, /usage: svc serve/],
  [['app', '--bind', '0.0.0.0'], /^svc: unknown option --bind/, /usage: svc app/],
  [['project', 'add', 'demo'], /^svc: project add needs 2 arguments$/m, /usage: svc project add/],
  [['project', 'add', 'demo', '/tmp', '--force'], /^svc: unknown option --force/, /usage: svc project add/],
  [['project', 'list', 'all'], /^svc: unexpected argument: all$/m, /usage: svc project list/],
  [['start', 'demo'], /^svc: start needs 2 arguments$/m, /usage: svc start/],
  [['start', 'demo', 'a goal', '--workflow'], /^svc: --workflow needs a value$/m, /usage: svc start/],
  [['start', 'demo', 'a goal', '--priority', 'high'], /^svc: unknown option --priority/, /usage: svc start/],
  [['runs', '--json'], /^svc: unknown option --json/, /usage: svc runs/],
  [['doctor', 'claude'], /^svc: unexpected argument: claude$/m, /usage: svc doctor/],
  [['run'], /^svc: run needs an argument$/m, /usage: svc run RUN_ID/],
  [['run', 'r-1', 'r-2'], /^svc: unexpected argument: r-2$/m, /usage: svc run RUN_ID/],
  [['mcp', 'token', '--regenerate=yes'], /^svc: --regenerate takes no value$/m, /usage: svc mcp token/],
  [['mcp', 'token', '--rotate'], /^svc: unknown option --rotate/, /usage: svc mcp token/],
  [['mcp', 'other'], /^svc: unknown command: mcp other$/m, /usage: svc mcp token/],
  [['frobnicate'], /^svc: unknown command: frobnicate$/m, /^usage:$/m],
  [[], /^usage:$/m, /svc serve/],
];

for (const [args, problem, usage] of REFUSED) {
  test.serial(`svc ${args.join(' ') || '(nothing)'} → refused with the usage on stderr, exit 2`, async (t) => {
    const r = await svc(...args);
    t.is(r.code, 2, r.stdout + r.stderr);
    t.regex(r.stderr, problem);
    t.regex(r.stderr, usage);
    t.is(r.stdout, '');
    t.false(existsSync(join(r.svcHome, 'server.json')), 'no server started');
    t.false(existsSync(join(r.svcHome, 'mcp-token')), 'no token made');
  });
}

test.serial('a goal word that starts with a dash goes after --', async (t) => {
  // no server runs, so the command gets as far as looking for one: the words were accepted
  const r = await svc('start', 'demo', '--title', 'T', '--', 'fix', '-x', 'handling');
  t.is(r.code, 1, r.stderr);
  t.regex(r.stderr, /no server is running/);
});

test('the executable: --help exits 0 with the usage on stdout; an unknown flag exits 2 with it on stderr', async (t) => {
  const help = await spawnSvc('serve', '--help');
  t.is(help.code, 0, help.stderr);
  t.regex(help.stdout, /^usage: svc serve /);
  const bad = await spawnSvc('serve', '--prot', '0');
  t.is(bad.code, 2);
  t.is(bad.stdout, '');
  t.regex(bad.stderr, /^svc: unknown option --prot .*\nusage: svc serve /);
  t.false(existsSync(join(bad.svcHome, 'server.json')));
});
