import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, gitOk } from '../lib/git/git.js';
import { snapshotRef, takeSnapshot } from '../lib/git/snapshot.js';
import { benchTmp, gitRepo, median, now, removeDir, row, type BenchResult, timed } from './common.js';

// The cost of a step end's snapshot (lib/git/snapshot.ts: a temporary index seeded from the real
// one, `add -A`, two write-trees, two commit-trees, update-ref) on a worktree of 10,000 files with
// some modified, staged and untracked, against `git stash create` on the same worktree in the same
// run (rounds alternate). stash create records tracked changes only; the snapshot also records
// untracked files and keeps a ref, so it is expected to cost somewhat more.

const BENCH = 'snapshot';
const FILES = 10_000;
const ROUNDS = 7;
const IDENTITY = { GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@localhost', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@localhost' };

const line = (i: number): string => `file ${i}: ${'lorem ipsum dolor sit amet '.repeat(8)}\n`;

const bigRepo = async (dir: string): Promise<string> => {
  const repo = gitRepo(dir);
  for (let d = 0; d < FILES / 100; d++) {
    mkdirSync(join(repo, `src/d${d}`), { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(repo, `src/d${d}/f${f}.txt`), line(d * 100 + f));
  }
  await gitOk(repo, ['add', '-A']);
  await gitOk(repo, ['commit', '-q', '-m', '10,000 files'], { env: IDENTITY });
  // what a step leaves: 50 files changed, 20 of them staged, 50 new files
  for (let i = 0; i < 50; i++) writeFileSync(join(repo, `src/d${i}/f1.txt`), `${line(i)}changed\n`);
  await gitOk(repo, ['add', ...Array.from({ length: 20 }, (_, i) => `src/d${i}/f1.txt`)]);
  mkdirSync(join(repo, 'new'));
  for (let i = 0; i < 50; i++) writeFileSync(join(repo, `new/n${i}.txt`), line(i));
  await gitOk(repo, ['status', '--porcelain']); // the index's stat cache as a person's git leaves it
  return repo;
};

export const run = async (): Promise<BenchResult> => {
  const started = now();
  const dir = benchTmp(BENCH);
  const repo = await bigRepo(join(dir, 'repo'));
  const snaps: number[] = [];
  const stashes: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    stashes.push(await timed(async () => { const s = await git(repo, ['stash', 'create'], { env: IDENTITY }); if (s.code !== 0) throw new Error(s.stderr); }));
    snaps.push(await timed(() => takeSnapshot(repo, snapshotRef('r-bench', r + 1))));
  }
  const snap = median(snaps);
  const stash = median(stashes);
  removeDir(dir);
  return {
    bench: BENCH,
    rows: [row({ bench: BENCH, measure: `takeSnapshot, ${FILES.toLocaleString('en-US')} files (50 changed, 20 staged, 50 untracked)`, measured: snap, baseline: stash, unit: 'ms', baselineLabel: 'git stash create, same worktree', target: { op: '<', value: 3 } })],
    notes: [`median of ${ROUNDS} alternating rounds: snapshot ${snap.toFixed(1)} ms, stash create ${stash.toFixed(1)} ms (stash create leaves untracked files out)`],
    seconds: (now() - started) / 1000,
  };
};
