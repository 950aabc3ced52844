import type { Availability } from '../domain/harness.js';
import { HARNESS_SETUP } from '../domain/harness-setup.js';
import type { HarnessName } from '../domain/workflow.js';
import { unavailable, type Refusal } from './refusal.js';
import { sandboxRefusal, type SandboxReadiness } from './sandbox.js';

// Starting a run whose agent steps need a CLI that is known not to work is refused up front:
// otherwise every step fails at spawn and the workflow walks its failure edges into a gate.
// Only what is known blocks: a harness not checked yet, or out of quota (it resets), is allowed,
// and a step that then cannot start its CLI pauses the run (decideFinishStep).

export interface HarnessReadiness {
  readonly harness: HarnessName;
  readonly state: Availability['_tag'] | 'Unchecked';
  /** why it is not ready (null when ready or not checked yet) */
  readonly detail: string | null;
  /** what to do about it, for a person: the install or log-in command */
  readonly fix: string | null;
  /** true when a start needing it is refused */
  readonly blocks: boolean;
}

export const readinessOf = (harness: HarnessName, a: Availability | undefined): HarnessReadiness => {
  const setup = HARNESS_SETUP[harness];
  if (!a) return { harness, state: 'Unchecked', detail: null, fix: null, blocks: false };
  switch (a._tag) {
    case 'Ready': return { harness, state: 'Ready', detail: null, fix: null, blocks: false };
    case 'NotInstalled': return { harness, state: a._tag, detail: a.detail, fix: `install it with \`${setup.install}\``, blocks: true };
    case 'NotLoggedIn': return { harness, state: a._tag, detail: a.detail, fix: `log in with ${setup.login}`, blocks: true };
    case 'QuotaExhausted': return { harness, state: a._tag, detail: a.detail, fix: null, blocks: false };
  }
};

const problem = (r: HarnessReadiness): string =>
  `harness ${r.harness} is ${r.state === 'NotInstalled' ? 'not installed' : 'not logged in'} (${r.detail}); ${r.fix}`;

/** One line a person can act on, the same for HTTP, MCP, the CLI and the app. */
export const readinessText = (blocking: readonly HarnessReadiness[]): string =>
  `not started: ${blocking.map(problem).join('; ')}. Then start it again (\`svc doctor\` checks every harness), or choose another harness.`;

export interface StartReadiness {
  /** the harnesses the run's agent steps resolve to, in step order, each once */
  readonly needed: readonly HarnessName[];
  readonly availability: ReadonlyMap<HarnessName, Availability>;
  /** start: false records the run without starting it: nothing is needed yet */
  readonly start: boolean;
  /** the project's sandbox mode and whether the sandbox can start here (absent: not asked) */
  readonly sandbox?: SandboxReadiness;
}

export const decideStartReadiness = (c: StartReadiness): Refusal | null => {
  if (!c.start) return null;
  const sandbox = c.sandbox ? sandboxRefusal(c.sandbox) : null;
  if (sandbox) return sandbox;
  const blocking = c.needed.map((h) => readinessOf(h, c.availability.get(h))).filter((r) => r.blocks);
  return blocking.length === 0 ? null : unavailable(readinessText(blocking));
};
