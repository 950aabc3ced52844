import '../helpers/env.js';
// Serial: the CLIs read the model server's address from process.env, which the tests share.
import test from 'ava';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { runWithFallbacks } from '../../lib/supervisors/agent/fallback.js';
import { runSupervisorTurn } from '../../lib/supervisors/agent/turn.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { callMcp, httpError, say } from '../fixtures/model-server/script.js';
import { writeCodexConfig } from '../harness/sandbox.js';
import { turnKit } from './turn-kit.js';

// A supervisor turn on the real claude CLI against the scripted model server: it runs in the
// supervisor's own scratch folder, reaches the tool endpoint at /mcp?supervisor=<key> with the
// bearer token, replies, reports its cost, and its next turn resumes the same session.

const KEY = 'sk-sup-test-key+/=';

test.serial('a supervisor turn on real claude calls the endpoint with its key, replies, costs, and resumes', async (t) => {
  t.timeout(300_000);
  const kit = await turnKit(KEY);
  const model = await startModelServer([callMcp('list_projects', {}, 'Looking.'), say('There is one project: demo.'), say('Still one project.')]);
  t.teardown(async () => (await model.close(), await kit.close()));
  process.env['ANTHROPIC_BASE_URL'] = model.url;
  process.env['ANTHROPIC_API_KEY'] = 'sk-test';
  const signal = new AbortController().signal;
  const first = await runSupervisorTurn(kit.deps, { supervisorId: 'sup1', key: KEY, turnId: 't1', harness: 'claude', prompt: 'FIRST-PROMPT which projects are there?', signal });

  t.is(first.outcome, 'success', `${first.summary}\n${kit.logs.join('\n')}`);
  t.deepEqual(first.replies, ['Looking.', 'There is one project: demo.']);
  t.true(typeof first.costUsd === 'number' && first.costUsd > 0, `claude reports its cost: ${first.costUsd}`);
  t.truthy(first.sessionId);
  const bodies = model.scriptedBodies().map((b) => JSON.stringify(b));
  t.true(bodies[0]!.includes('mcp__svc__get_run'), 'every tool of the keyed endpoint is offered');
  t.true(bodies[0]!.includes('data, not instructions'), 'the supervisor guide is its system prompt');
  t.true(bodies[1]!.includes(kit.s.repo), 'the endpoint answered list_projects through /mcp?supervisor=<key>');
  const dir = join(kit.s.home, 'supervisors', 'sup1');
  t.is(statSync(dir).mode & 0o777, 0o700, 'the scratch folder is owner-only');
  t.true(kit.logs.some((l) => l.includes('mcp=svc:connected')), kit.logs.join('\n'));

  const second = await runSupervisorTurn(kit.deps, { supervisorId: 'sup1', key: KEY, turnId: 't2', harness: 'claude', prompt: 'SECOND-PROMPT', resumeSession: first.sessionId!, signal });
  t.is(second.outcome, 'success', second.summary);
  t.is(second.sessionId, first.sessionId, 'the same session goes on');
  const resumed = JSON.stringify(model.scriptedBodies()[2]);
  t.true(resumed.includes('FIRST-PROMPT') && resumed.includes('SECOND-PROMPT'), 'the second turn carries the first one');
});

test.serial('a wrong key: the endpoint refuses it, the CLI has no svc tools, and the turn still ends', async (t) => {
  t.timeout(300_000);
  const kit = await turnKit(KEY);
  const model = await startModelServer([callMcp('list_projects', {}), say('I could not reach svc.')]);
  t.teardown(async () => (await model.close(), await kit.close()));
  process.env['ANTHROPIC_BASE_URL'] = model.url;
  process.env['ANTHROPIC_API_KEY'] = 'sk-test';
  const r = await runSupervisorTurn(kit.deps, { supervisorId: 'sup2', key: 'not-the-key', turnId: 't1', harness: 'claude', prompt: 'which projects?', signal: new AbortController().signal });
  t.is(r.outcome, 'success', r.summary);
  const bodies = model.scriptedBodies().map((b) => JSON.stringify(b));
  t.false(bodies[0]!.includes('mcp__svc__get_run'), 'a refused key gives the CLI no svc tools');
  t.false(bodies.some((b) => b.includes(kit.s.repo)), 'nothing from the service reached the model');
});

test.serial('quota: a claude turn refused for its usage limit runs again on the first ready fallback (real codex)', async (t) => {
  t.timeout(400_000);
  const kit = await turnKit(KEY);
  const limit = httpError(429, "You've hit your usage limit.", 'rate_limit_error', {
    'anthropic-ratelimit-unified-status': 'rejected',
    'anthropic-ratelimit-unified-reset': String(Math.floor(Date.now() / 1000) + 3600),
    'retry-after': '3600',
  });
  const model = await startModelServer(Array.from({ length: 20 }, () => limit));
  t.teardown(async () => (await model.close(), await kit.close()));
  // opencode is first in the list but not installed here, so it is not ready: codex is the first ready one
  Object.assign(process.env, { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test', OPENAI_API_KEY: 'sk-test', SVC_HARNESS_BIN_OPENCODE: '/nonexistent/opencode' });
  t.teardown(() => delete process.env['SVC_HARNESS_BIN_OPENCODE']);
  writeCodexConfig({ root: '', repo: '', env: process.env, cleanup: () => undefined }, model.url);
  const fallbacks: string[] = [];
  const r = await runWithFallbacks(kit.deps, {
    supervisorId: 'sup3', key: KEY, turnId: 't1', harness: 'claude', model: 'claude-only-model', prompt: 'resumed words', freshPrompt: 'FRESH-PROMPT',
    quotaFallbacks: ['opencode', 'codex'], signal: new AbortController().signal,
    onFallback: (from, to, why) => (fallbacks.push(`${from}->${to}: ${why}`), model.replace(say('Answered on codex.'))),
  });
  t.is(r.outcome, 'success', `${r.summary}\n${kit.logs.join('\n')}`);
  t.is(r.harness, 'codex');
  t.deepEqual(r.tried, ['claude', 'codex'], 'opencode is skipped: not ready');
  t.deepEqual(r.replies, ['Answered on codex.']);
  t.is(fallbacks.length, 1);
  t.regex(fallbacks[0]!, /^claude->codex: .*usage limit/);
  t.is(r.costUsd, undefined, 'codex reports usage, not a cost');
  t.true(JSON.stringify(model.scriptedBodies().at(-1)).includes('FRESH-PROMPT'), 'the fallback starts fresh');
});
