import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

// A project with a history big enough for the bytes moved to matter (incremental bundles,
// docs/workers.md "What moves"): `commits` commits on top of the repository's current branch, each
// rewriting one of 40 generated files with `bytes` of random text (it does not compress), written
// with git fast-import (a few hundred commits in well under a second), then checked out.

export const growHistory = (repo: string, commits = 300, bytes = 20_000): void => {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' }).toString().trim();
  const branch = git('symbolic-ref', 'HEAD');
  const head = git('rev-parse', 'HEAD');
  const chunks: Buffer[] = [];
  const data = (b: Buffer) => chunks.push(Buffer.from(`data ${b.length}\n`), b, Buffer.from('\n'));
  for (let n = 1; n <= commits; n++) {
    chunks.push(Buffer.from(`commit ${branch}\ncommitter t <t@t> ${1_700_000_000 + n} +0000\n`));
    data(Buffer.from(`generated ${n}`));
    if (n === 1) chunks.push(Buffer.from(`from ${head}\n`));
    chunks.push(Buffer.from(`M 644 inline generated/f${n % 40}.txt\n`));
    data(Buffer.from(randomBytes(Math.ceil((bytes * 3) / 4)).toString('base64').slice(0, bytes)));
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: repo, input: Buffer.concat(chunks), stdio: ['pipe', 'pipe', 'pipe'] });
  git('reset', '-q', '--hard');
};
