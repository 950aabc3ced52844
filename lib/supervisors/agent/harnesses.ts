// Which adapters supervisor turns use. By default the same set as run steps. Tests drive runs on
// the scripted stand-in (SVC_HARNESS_MODULE) while a supervisor talks through a real CLI: with
// SVC_SUPERVISOR_HARNESSES=cli supervisor turns get the real CLIs whatever the runs use.
import type { HarnessAdapter } from '../../harness/adapter.js';
import { createAdapters } from '../../harness/registry.js';
import type { HarnessName } from '../../../domain/workflow.js';

export type HarnessSet = Readonly<Record<HarnessName, HarnessAdapter>>;

export const SUPERVISOR_HARNESSES_ENV = 'SVC_SUPERVISOR_HARNESSES';

export const supervisorHarnesses = (runHarnesses: HarnessSet, env: NodeJS.ProcessEnv = process.env): HarnessSet =>
  env[SUPERVISOR_HARNESSES_ENV] === 'cli' ? createAdapters({}) : runHarnesses;
