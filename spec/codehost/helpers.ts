import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Every codehost test runs with HOME and SVC_HOME in fresh temp folders, so neither the user's
// git config nor their ~/.svc can leak in, and no GH_TOKEN from the environment is used.
export const isolateHome = (): string => {
  const root = mkdtempSync(join(tmpdir(), 'svc-codehost-'));
  process.env.HOME = join(root, 'home');
  process.env.SVC_HOME = join(root, 'svc');
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  delete process.env.GH_TOKEN;
  return root;
};
