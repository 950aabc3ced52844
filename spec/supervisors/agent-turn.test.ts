import '../helpers/env.js';
// Serial: the CLIs read the model server's address from process.env, which the tests share.
import test from 'ava';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureToken } from '../../lib/auth/mcp-token.js';
import { runWithFallbacks } from '../../lib/supervisors/agent/fallback.js';
import { runSupervisorTurn, supervisorEndpointUrl } from '../../lib/supervisors/agent/turn.js';
import { callMcp, httpError, say } from '../fixtures/model-server/script.js';
import { pointCodexAtModel } from './live-kit.js';
import { turnKit } from './turn-kit.js';

// A supervisor turn on the real claude CLI against the scripted model server, in the real server
// with the feature on: it runs in the supervisor's own scratch folder, reaches the server's own
// tool endpoint at /mcp?supervisor=<key> with the supervisor's real key and the bearer token,
// replies, reports its cost, and its next turn resumes the same session.

const WRONG_KEY = 'not-the-key';

test.serial('a supervisor turn on real claude calls the endpoint with its key, replies, costs, and resumes', async (t) => {
  t.timeout(300_000);
  const k = await turnKit(t, [callMcp('list_projects', {}, 'Looking.'), say('There is one project: demo.'), say('Still one project.')]);
  const signal = new AbortController().signal;
  const turn = { supervisorId: k.global, key: k.key, harness: 'claude' as const, signal };
  const first = await runSupervisorTurn(k.deps, { ...turn, turnId: 't1', prompt: 'FIRST-PROMPT which projects are there?' });

  t.is(first.outcome, 'success', `${first.summary}\n${k.logs.join('\n')}`);
  t.deepEqual(first.replies, ['Looking.', 'There is one project: demo.']);
  t.true(typeof first.costUsd === 'number' && first.costUsd > 0, `claude reports its cost: ${first.costUsd}`);
  t.truthy(first.sessionId);
  const bodies = k.model.scriptedBodies().map((b) => JSON.stringify(b));
  t.true(bodies[0]!.includes('mcp__svc__get_run'), 'the keyed endpoint\'s tools are offered');
  t.true(bodies[0]!.includes('mcp__svc__keep_supervisor_notes'), 'with the supervisor\'s own tools: the endpoint knows the key');
  t.true(bodies[0]!.includes('data, not instructions'), 'the supervisor guide is its system prompt');
  t.true(bodies[1]!.includes(k.s.repo), 'the endpoint answered list_projects through /mcp?supervisor=<key>');
  const dir = join(k.s.home, 'supervisors', k.global);
  t.is(statSync(dir).mode & 0o777, 0o700, 'the scratch folder is owner-only');
  t.true(k.logs.some((l) => l.includes('mcp=svc:connected')), k.logs.join('\n'));

  const second = await runSupervisorTurn(k.deps, { ...turn, turnId: 't2', prompt: 'SECOND-PROMPT', resumeSession: first.sessionId! });
  t.is(second.outcome, 'success', second.summary);
  t.is(second.sessionId, first.sessionId, 'the same session goes on');
  const resumed = JSON.stringify(k.model.scriptedBodies()[2]);
  t.true(resumed.includes('FIRST-PROMPT') && resumed.includes('SECOND-PROMPT'), 'the second turn carries the first one');
});

test.serial('a wrong key: the endpoint refuses it (403), the CLI has no svc tools, and the turn still ends', async (t) => {
  t.timeout(300_000);
  const k = await turnKit(t, [callMcp('list_projects', {}), say('I could not reach svc.')]);
  const refused = await fetch(supervisorEndpointUrl(k.s.url, WRONG_KEY), {
    method: 'POST',
    headers: { authorization: `Bearer ${ensureToken(k.s.home)}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } }),
  });
  t.is(refused.status, 403, 'what the CLI meets with this key');

  const r = await runSupervisorTurn(k.deps, { supervisorId: k.global, key: WRONG_KEY, turnId: 't1', harness: 'claude', prompt: 'which projects?', signal: new AbortController().signal });
  t.is(r.outcome, 'success', r.summary);
  t.deepEqual(r.replies, ['I could not reach svc.']);
  const bodies = k.model.scriptedBodies().map((b) => JSON.stringify(b));
  t.false(bodies[0]!.includes('mcp__svc__get_run'), 'a refused key gives the CLI no svc tools');
  t.false(bodies.some((b) => b.includes(k.s.repo)), 'nothing from the service reached the model');
  t.false(k.logs.some((l) => l.includes('mcp=svc:connected')), k.logs.join('\n'));
});

test.serial('quota: a claude turn refused for its usage limit runs again on the first ready fallback (real codex)', async (t) => {
  t.timeout(400_000);
  const limit = httpError(429, "You've hit your usage limit.", 'rate_limit_error', {
    'anthropic-ratelimit-unified-status': 'rejected',
    'anthropic-ratelimit-unified-reset': String(Math.floor(Date.now() / 1000) + 3600),
    'retry-after': '3600',
  });
  // opencode is first in the list but missing here, so it is not ready: codex is the first ready one
  process.env['SVC_HARNESS_BIN_OPENCODE'] = '/nonexistent/opencode';
  t.teardown(() => delete process.env['SVC_HARNESS_BIN_OPENCODE']);
  const k = await turnKit(t, Array.from({ length: 20 }, () => limit));
  pointCodexAtModel(k.model.url);
  const fallbacks: string[] = [];
  const r = await runWithFallbacks(k.deps, {
    supervisorId: k.global, key: k.key, turnId: 't1', harness: 'claude', model: 'claude-only-model', prompt: 'resumed words', freshPrompt: 'FRESH-PROMPT',
    quotaFallbacks: ['opencode', 'codex'], signal: new AbortController().signal,
    onFallback: (from, to, why) => (fallbacks.push(`${from}->${to}: ${why}`), k.model.replace(callMcp('list_projects', {}), say('Answered on codex.'))),
  });
  t.is(r.outcome, 'success', `${r.summary}\n${k.logs.join('\n')}`);
  t.is(r.harness, 'codex');
  t.deepEqual(r.tried, ['claude', 'codex'], 'opencode is skipped: not ready');
  t.deepEqual(r.replies, ['Answered on codex.']);
  t.is(fallbacks.length, 1);
  t.regex(fallbacks[0]!, /^claude->codex: .*usage limit/);
  t.is(r.costUsd, undefined, 'codex reports usage, not a cost');
  const bodies = k.model.scriptedBodies().map((b) => JSON.stringify(b));
  t.true(bodies.at(-2)!.includes('FRESH-PROMPT'), 'the fallback starts fresh');
  t.true(bodies.at(-1)!.includes(k.s.repo), 'codex reached the endpoint with the real key too');
});
