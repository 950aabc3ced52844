// How a person gets each agent CLI working: the install and log-in commands the refusals, the
// New run form and `svc doctor` print. One table, so every door says the same thing. Pure data:
// commands/ reads it (whether the CLI is there now is lib/on-path.ts).
import type { HarnessName } from './workflow.js';

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
