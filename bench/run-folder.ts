import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitOk } from '../lib/git/git.js';
import { createRunWorktrees, removeRunWorktrees } from '../lib/git/worktrees.js';
import { benchTmp, gitRepo, median, now, removeDir, row, type BenchResult, timed } from './common.js';

// The cost of making a run's folder (lib/git/worktrees.ts createRunWorktrees) as the run's own
// repository (lib/git/run-clones.ts: init, the person's objects as alternates, their refs fetched,
// the files checked out) against a linked `git worktree add` (what runs had before), on a
// repository of 10,000 files and 200 branches, rounds alternating. Both check out the same
// 10,000 files; the clone adds a local fetch of the refs (no objects copied).

const BENCH = 'run-folder';
const FILES = 10_000;
const BRANCHES = 200;
const ROUNDS = 7;
const IDENTITY = { GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@localhost', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@localhost' };

const bigRepo = async (dir: string): Promise<string> => {
  const repo = gitRepo(dir);
  for (let d = 0; d < FILES / 100; d++) {
    mkdirSync(join(repo, `src/d${d}`), { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(repo, `src/d${d}/f${f}.txt`), `file ${d * 100 + f}\n`);
  }
  await gitOk(repo, ['add', '-A']);
  await gitOk(repo, ['commit', '-q', '-m', '10,000 files'], { env: IDENTITY });
  for (let b = 0; b < BRANCHES; b++) await gitOk(repo, ['branch', `topic/${b}`]);
  await gitOk(repo, ['gc', '-q']);
  return repo;
};

export const run = async (): Promise<BenchResult> => {
  const started = now();
  const dir = benchTmp(BENCH);
  const repo = await bigRepo(join(dir, 'repo'));
  const home = join(dir, 'svc');
  const folders = [{ name: 'app', path: repo }];
  const clones: number[] = [];
  const worktrees: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    worktrees.push(await timed(() => createRunWorktrees(home, `w${r}`, folders, undefined, 'worktree')));
    clones.push(await timed(() => createRunWorktrees(home, `c${r}`, folders, undefined, 'clone')));
    // removed between rounds so neither finds the other's files warm in a folder of its own
    await removeRunWorktrees(home, `w${r}`, folders);
    await removeRunWorktrees(home, `c${r}`, folders);
  }
  const clone = median(clones);
  const worktree = median(worktrees);
  removeDir(dir);
  return {
    bench: BENCH,
    rows: [row({ bench: BENCH, measure: `run folder as its own repository, ${FILES.toLocaleString('en-US')} files, ${BRANCHES} branches`, measured: clone, baseline: worktree, unit: 'ms', baselineLabel: 'git worktree add (branch + linked worktree), same repository', target: { op: '<', value: 2 } })],
    notes: [`median of ${ROUNDS} alternating rounds: own repository ${clone.toFixed(1)} ms, linked worktree ${worktree.toFixed(1)} ms`],
    seconds: (now() - started) / 1000,
  };
};
