// How a person gets each agent CLI working: the install and log-in commands the refusals, the
// New run form and `svc doctor` print. One table, so every door says the same thing.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { HarnessName } from '../workflows/model.js';

export interface HarnessSetup {
  /** the npm package that installs the CLI */
  readonly install: string;
  /** how to log in (or the API key that does instead) */
  readonly login: string;
}

export const HARNESS_SETUP: Readonly<Record<HarnessName, HarnessSetup>> = {
  claude: { install: 'npm install -g @anthropic-ai/claude-code', login: '`claude auth login` (or set ANTHROPIC_API_KEY)' },
  codex: { install: 'npm install -g @openai/codex', login: '`codex login` (or set OPENAI_API_KEY)' },
  opencode: { install: 'npm install -g opencode-ai', login: '`opencode auth login`' },
};

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

// A cheap, synchronous "is it there now?": a check that said NotInstalled goes stale the moment
// the person installs the CLI, and a start should not be refused on that old answer.
export const onPath = (bin: string, env: NodeJS.ProcessEnv = process.env): boolean =>
  bin.includes('/') ? executable(bin) : (env['PATH'] ?? '').split(delimiter).some((dir) => dir !== '' && executable(join(dir, bin)));
