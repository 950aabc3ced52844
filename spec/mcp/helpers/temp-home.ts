import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A fresh HOME and SVC_HOME under the system temp folder, removed when the test process exits.
const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

export const tempHome = (prefix = 'svc-mcp-'): string => {
  const root = mkdtempSync(join(tmpdir(), prefix));
  made.push(root);
  process.env.HOME = root;
  process.env.SVC_HOME = join(root, '.svc');
  return process.env.SVC_HOME;
};
