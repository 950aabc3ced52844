import { right } from 'fp-ts/lib/Either.js';
import type { RunEvent } from '../../journal/run-events.js';
import type { TestServer } from './server.js';

// A long thread, as the walk of issue 32 saw one: 21 agent messages, each followed by its own tool
// calls (302 in all, more than one page of calls), appended to a real run through its streams and
// activity log, a second apart from a minute ahead. Used by spec/web/long-thread and dark-theme.

export const MESSAGES = 21;
export const CALLS = 302;
/** how many calls follow message k (1-based): 302 over 21 messages, the first ones one more */
export const callsOf = (k: number) => Math.floor(CALLS / MESSAGES) + (k <= CALLS % MESSAGES ? 1 : 0);

export const seedLongThread = (server: Pick<TestServer, 'service'>, runId: string): void => {
  const core = server.service.core;
  let clock = Date.now() + 60_000;
  const next = () => new Date(clock += 1000).toISOString();
  for (let k = 1; k <= MESSAGES; k++) {
    const e: RunEvent = { type: 'AgentReplied', data: { stepId: 's99', text: `Batch ${k}` } };
    const r = core.runs.transact(runId, () => right([e]), { at: next(), onStale: 'retry' });
    if (r._tag !== 'Right') throw new Error('not appended');
    for (let c = 1; c <= callsOf(k); c++) {
      const callId = `b${k}c${c}`;
      core.logs.activity.record(runId, 's99', { phase: 'started', callId, tool: 'Bash', kind: 'command', title: `batch ${k} call ${c}`, at: next() }, next());
      core.logs.activity.record(runId, 's99', { phase: 'ended', callId, status: 'ok', output: 'done', at: next() }, next());
    }
  }
};
