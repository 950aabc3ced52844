import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { worktreeOf } from './http-kit.js';
import type { TestServer } from './server.js';
import { startRun, untilStanding } from './steer.js';

// A succeeded run whose worktree changes a file of the base (changed lines, with code tokens of
// every kind) and adds a few, one of them long: what the diff's reading specs look at
// (spec/web/diff-reading, dark-theme).

const CODE = (n: number, s: string) => `// tokens of every kind\nexport const answer = ${n};\nconst re = /ab+c/g;\nfunction greet(name: string): string { return \`hi \${name}\` + '${s}'; }\nclass A extends Array<number> { static x = null; }\n`;
const LONG = Array.from({ length: 120 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

export const diffRun = async (server: TestServer): Promise<string> => {
  mkdirSync(join(server.repo, 'src'), { recursive: true });
  writeFileSync(join(server.repo, 'src', 'tokens.ts'), CODE(41, 'old'));
  execFileSync('git', ['add', '.'], { cwd: server.repo });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '-qm', 'tokens'], { cwd: server.repo });
  const runId = await startRun(server, { goal: '[write:notes.txt=alpha\nbeta\n]', title: 'Reading run', workflow: 'linear' });
  await untilStanding(server, runId, 'Succeeded');
  const dir = await worktreeOf(server, runId);
  writeFileSync(join(dir, 'src', 'tokens.ts'), CODE(42, 'new'));
  writeFileSync(join(dir, 'zz-long.md'), LONG);
  writeFileSync(join(dir, 'zz-last.txt'), 'the end\n');
  return runId;
};
