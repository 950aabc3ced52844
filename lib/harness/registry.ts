// The adapters the engine uses, one per CLI, built from one config (binary paths, environment).
import type { HarnessName } from '../../domain/workflow.js';
import type { HarnessAdapter } from './adapter.js';
import { claudeAdapter } from './claude.js';
import { codexAdapter } from './codex.js';
import { opencodeAdapter } from './opencode.js';
import type { HarnessConfig } from './common.js';

export type { HarnessConfig } from './common.js';

export const createAdapters = (config: HarnessConfig = {}): Record<HarnessName, HarnessAdapter> => ({
  claude: claudeAdapter(config),
  codex: codexAdapter(config),
  opencode: opencodeAdapter(config),
});
