import '../helpers/env.js';
import anyTest, { type ExecutionContext, type TestFn } from 'ava';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tier } from '../../domain/supervisor.js';
import { ask, supKit, textOf, type CallAnswer, type SupKit } from './kit.js';

// The ten rules of Supervisor scoping × the three tiers, each asked over the official MCP SDK
// client at /mcp?supervisor=<key> on a real server. A row names who calls what; its expectation
// at each tier is: it acts (DoIt), it posts an approval card and acts not (AskFirst), or it is
// refused with the rule's words.

interface World {
  readonly k: SupKit;
  readonly sp: Client;
  readonly global: Client;
  /** p1 runs (owned by sp): parked at the gate, and one in an endless agent turn */
  readonly own: string;
  readonly busy: string;
  /** a run of the other project (owned by the global supervisor) */
  readonly theirs: string;
}

const test = anyTest as TestFn<World>;

test.before(async (t) => {
  const k = await supKit();
  const own = await k.gateRun(k.s.projectId, 'own run');
  const busy = await k.busyRun(k.s.projectId);
  const theirs = await k.gateRun(k.otherProject, 'their run');
  await k.patch(k.sp, { runCap: 20, quotaFallbacks: ['codex', 'opencode'] });
  await k.patch('global', { runCap: 20 });
  t.context = { k, own, busy, theirs, sp: await k.client(await k.key(k.sp)), global: await k.client(await k.key('global')) };
});
test.after.always(async (t) => {
  await t.context.k?.close();
});

type Expect =
  | { readonly _tag: 'Acts'; readonly check?: (t: ExecutionContext<World>, w: World, a: CallAnswer) => unknown }
  | { readonly _tag: 'Asks' }
  | { readonly _tag: 'Refused'; readonly text: RegExp };

const acts = (check?: Extract<Expect, { _tag: 'Acts' }>['check']): Expect => ({ _tag: 'Acts', ...(check ? { check } : {}) });
const refused = (text: RegExp): Expect => ({ _tag: 'Refused', text });
/** an action the rules allow: DoIt acts, AskFirst asks, Never refuses */
const tiered = (check?: Extract<Expect, { _tag: 'Acts' }>['check']) => (tier: Tier): Expect =>
  tier === 'DoIt' ? acts(check) : tier === 'AskFirst' ? { _tag: 'Asks' } : refused(/is set to Never for this supervisor/);
/** the same at every tier */
const always = (e: Expect) => (): Expect => e;

interface Row {
  readonly rule: number;
  readonly name: string;
  readonly who: 'sp' | 'global';
  readonly tool: string;
  readonly args: (w: World) => Record<string, unknown>;
  readonly expect: (tier: Tier) => Expect;
  /** settings the row needs, undone after it */
  readonly given?: (w: World) => Promise<() => Promise<void>>;
}

const hold = (run: string, reason?: string) => ({ run, text: 'a word from your supervisor', delivery: 'Hold', ...(reason !== undefined ? { reason } : {}) });

const lastEvent = (w: World, run: string, type: string) => w.k.s.service.core.journal.read(`run:${run}`).filter((e) => e.type === type).at(-1)?.data as any;

const ROWS: readonly Row[] = [
  { rule: 1, name: 'an action without a reason', who: 'sp', tool: 'message_run', args: (w) => hold(w.own), expect: always(refused(/message_run needs a reason/)) },
  {
    rule: 1, name: 'the reason is recorded on the run and in the chat', who: 'sp', tool: 'message_run', args: (w) => hold(w.own, 'rule one reason'),
    expect: tiered((t, w) => {
      t.like(lastEvent(w, w.own, 'MessageSent'), { reason: 'rule one reason', by: { kind: 'supervisor', name: w.k.sp } });
      t.like(w.k.chat(w.k.sp).at(-1), { type: 'ActionTaken', data: { tool: 'message_run', run: w.own, reason: 'rule one reason' } });
    }),
  },
  { rule: 2, name: "a project supervisor on the global one's run", who: 'sp', tool: 'message_run', args: (w) => hold(w.theirs, 'mine?'), expect: always(refused(/is owned by supervisor global/)) },
  { rule: 2, name: "the global supervisor on a project supervisor's run", who: 'global', tool: 'revise_goal', args: (w) => ({ run: w.own, goal: 'new', reason: 'x' }), expect: always(refused(/owned by supervisor s\w+, not by supervisor global/)) },
  { rule: 2, name: 'the global supervisor on its own run', who: 'global', tool: 'message_run', args: (w) => hold(w.theirs, 'checking in'), expect: tiered((t, w) => t.like(lastEvent(w, w.theirs, 'MessageSent'), { by: { name: 'global' } })) },
  { rule: 3, name: 'starting in a project another would own', who: 'sp', tool: 'start_run', args: (w) => ({ project: w.k.otherProject, goal: 'g', workflow: 'gate', reason: 'x' }), expect: always(refused(/would be owned by supervisor global/)) },
  { rule: 3, name: 'the global supervisor starting in a project with its own supervisor', who: 'global', tool: 'start_run', args: (w) => ({ project: w.k.s.projectId, goal: 'g', workflow: 'gate', reason: 'x' }), expect: always(refused(/would be owned by supervisor s/)) },
  {
    rule: 3, name: 'starting in its own project', who: 'sp', tool: 'start_run', args: (w) => ({ project: w.k.s.projectId, goal: 'started by sp', workflow: 'gate', reason: 'more hands' }),
    expect: tiered((t, w, a) => {
      const run = String(a.structuredContent?.['run']);
      t.like(lastEvent(w, run, 'RunCreated'), { reason: 'more hands', by: { kind: 'supervisor', name: w.k.sp } });
    }),
  },
  {
    rule: 4, name: 'list_runs keeps its own project', who: 'sp', tool: 'list_runs', args: () => ({}),
    expect: always(acts((t, w, a) => {
      const ids = (a.structuredContent?.['runs'] as { id: string }[]).map((r) => r.id);
      t.true(ids.includes(w.own) && !ids.includes(w.theirs), ids.join(','));
    })),
  },
  { rule: 4, name: 'list_runs of another project is empty', who: 'sp', tool: 'list_runs', args: (w) => ({ project: w.k.otherProject }), expect: always(acts((t, _w, a) => t.deepEqual(a.structuredContent?.['runs'], []))) },
  { rule: 4, name: 'list_projects keeps its own', who: 'sp', tool: 'list_projects', args: () => ({}), expect: always(acts((t, w, a) => t.deepEqual((a.structuredContent?.['projects'] as { id: string }[]).map((p) => p.id), [w.k.s.projectId]))) },
  { rule: 4, name: "get_run of another project's run", who: 'sp', tool: 'get_run', args: (w) => ({ run: w.theirs }), expect: always(refused(/sees only its own project/)) },
  { rule: 4, name: "another project's workflows", who: 'sp', tool: 'list_workflows', args: (w) => ({ project: w.k.otherProject }), expect: always(refused(/sees only its own project/)) },
  { rule: 5, name: "the global supervisor reads a project supervisor's run as get_run shows it, owner named", who: 'global', tool: 'get_run', args: (w) => ({ run: w.own }), expect: always(acts((t, w, a) => t.is((a.structuredContent?.['run'] as { owner: string }).owner, w.k.sp))) },
  { rule: 5, name: "the global supervisor's list shows every project", who: 'global', tool: 'list_runs', args: () => ({}), expect: always(acts((t, w, a) => t.true((a.structuredContent?.['runs'] as { id: string }[]).some((r) => r.id === w.own)))) },
  { rule: 5, name: "the global supervisor reading another's history", who: 'global', tool: 'read_run_history', args: (w) => ({ run: w.own }), expect: always(refused(/reads in full only runs it owns/)) },
  { rule: 5, name: "the global supervisor reading another's thread", who: 'global', tool: 'read_run_thread', args: (w) => ({ run: w.own }), expect: always(refused(/reads in full only runs it owns/)) },
  { rule: 5, name: 'the global supervisor reading its own run in full', who: 'global', tool: 'read_run_log', args: (w) => ({ run: w.theirs }), expect: always(acts()) },
  { rule: 6, name: 'control_run Pause of its busy run', who: 'sp', tool: 'control_run', args: (w) => ({ run: w.busy, position: 'v1', action: 'Pause', reason: 'hold on' }), expect: tiered((t, _w, a) => t.is(a.structuredContent?.['outcome'], 'Stale')) },
  { rule: 7, name: 'archive_run of its run', who: 'sp', tool: 'archive_run', args: (w) => ({ run: w.own, state: 'Active', reason: 'keep it' }), expect: tiered() },
  { rule: 1, name: 'merge_run without a reason', who: 'sp', tool: 'merge_run', args: (w) => ({ run: w.own, method: 'squash' }), expect: always(refused(/merge_run needs a reason/)) },
  {
    rule: 7, name: 'update_run_from_base of its run (under "Save and push")', who: 'sp', tool: 'update_run_from_base', args: (w) => ({ run: w.own, mode: 'merge', onConflict: 'leave', reason: 'main moved' }),
    expect: tiered((t, w, a) => {
      t.is(a.structuredContent?.['handedTo'], null);
      t.like(w.k.chat(w.k.sp).at(-1), { type: 'ActionTaken', data: { tool: 'update_run_from_base', run: w.own, reason: 'main moved' } });
    }),
  },
  {
    // the reason a supervisor must give is an argument open_pull_request takes (it once refused it as unknown)
    rule: 7, name: 'open_pull_request of its run, with its reason', who: 'sp', tool: 'open_pull_request', args: (w) => ({ run: w.own, reason: 'ready for review' }),
    expect: (tier) => (tier === 'DoIt' ? refused(/^(?!invalid arguments).*(code host|origin|nothing to push)/) : tiered()(tier)),
  },
  { rule: 4, name: 'read_usage sums every project: not for a project supervisor', who: 'sp', tool: 'read_usage', args: () => ({}), expect: always(refused(/sees only its own project \(.+\); read_usage sums the runs of every project/)) },
  { rule: 5, name: 'the global supervisor reads usage', who: 'global', tool: 'read_usage', args: () => ({ groupBy: 'project' }), expect: always(acts((t, _w, a) => t.like(a.structuredContent, { groupBy: 'project' }))) },
  { rule: 5, name: "the global supervisor reading another's pull request draft", who: 'global', tool: 'read_pull_request_draft', args: (w) => ({ run: w.own }), expect: always(refused(/reads in full only runs it owns/)) },
  {
    rule: 8, name: 'switched off: actions refused, reads and notes still work', who: 'sp', tool: 'message_run', args: (w) => hold(w.own, 'x'),
    given: async (w) => (await w.k.patch(w.k.sp, { enabled: false }), async () => void (await w.k.patch(w.k.sp, { enabled: true }))),
    expect: always(refused(/actions are refused now: supervisor s\w+ is switched off/)),
  },
  {
    rule: 8, name: 'paused for the day', who: 'sp', tool: 'secure_run_work', args: (w) => ({ run: w.own, reason: 'x' }),
    given: async (w) => (await w.k.patch(w.k.sp, { paused: true }), async () => void (await w.k.patch(w.k.sp, { paused: false }))),
    expect: always(refused(/paused for the day/)),
  },
  {
    rule: 8, name: "at today's spending limit", who: 'global', tool: 'message_run', args: (w) => hold(w.theirs, 'x'),
    given: async (w) => (await w.k.patch('global', { dailyLimitUsd: 0 }), async () => void (await w.k.patch('global', { dailyLimitUsd: 5 }))),
    expect: always(refused(/today's spending limit/)),
  },
  {
    rule: 8, name: 'paused: reading still works', who: 'sp', tool: 'get_run', args: (w) => ({ run: w.own }),
    given: async (w) => (await w.k.patch(w.k.sp, { paused: true }), async () => void (await w.k.patch(w.k.sp, { paused: false }))),
    expect: always(acts()),
  },
  {
    rule: 8, name: 'paused: notes still work', who: 'sp', tool: 'keep_supervisor_notes', args: () => ({ text: 'remember the gate' }),
    given: async (w) => (await w.k.patch(w.k.sp, { paused: true }), async () => void (await w.k.patch(w.k.sp, { paused: false }))),
    expect: always(acts((t, w) => t.is(w.k.s.service.core.supervisors.get(w.k.sp)?.notes, 'remember the gate'))),
  },
  {
    rule: 9, name: 'start_run at the cap of its own runs at work', who: 'sp', tool: 'start_run', args: (w) => ({ project: w.k.s.projectId, goal: 'g', workflow: 'gate', reason: 'x' }),
    given: async (w) => {
      const atWork = w.k.s.service.core.supervisors.runsAtWork(w.k.sp);
      await w.k.patch(w.k.sp, { runCap: atWork });
      return async () => void (await w.k.patch(w.k.sp, { runCap: 20 }));
    },
    expect: (tier) => (tier === 'Never' ? refused(/Never/) : refused(/runs at work and its cap is/)),
  },
  { rule: 10, name: 'ChangeHarness onto a harness not in its fallbacks', who: 'sp', tool: 'control_run', args: (w) => ({ run: w.busy, position: 'p', action: 'ChangeHarness', harness: 'claude', reason: 'x' }), expect: (tier) => (tier === 'Never' ? refused(/Never/) : refused(/quota fallbacks \(codex, opencode\); claude is not one/)) },
  { rule: 10, name: 'ChangeHarness onto a fallback that is not ready', who: 'sp', tool: 'control_run', args: (w) => ({ run: w.busy, position: 'p', action: 'ChangeHarness', harness: 'opencode', reason: 'x' }), expect: (tier) => (tier === 'Never' ? refused(/Never/) : refused(/opencode is in the quota fallbacks but not available now/)) },
  {
    rule: 10, name: 'ChangeHarness onto a ready fallback', who: 'sp', tool: 'control_run',
    args: (w) => ({ run: w.busy, position: String((w.k.s.service.getRun(w.busy) as any).right.position), action: 'ChangeHarness', harness: 'codex', reason: 'quota' }),
    expect: tiered((t, w, a) => {
      t.is(a.structuredContent?.['outcome'], 'Applied', JSON.stringify(a.structuredContent));
      t.like(lastEvent(w, w.busy, 'HarnessChanged'), { harness: 'codex', reason: 'quota' });
    }),
  },
];

const TIER_ORDER: readonly Tier[] = ['Never', 'AskFirst', 'DoIt'];

for (const row of ROWS) {
  for (const tier of TIER_ORDER) {
    test.serial(`rule ${row.rule}: ${row.name} [${tier}]`, async (t) => {
      const w = t.context;
      const id = row.who === 'sp' ? w.k.sp : 'global';
      await w.k.setTier(id, tier);
      const undo = row.given ? await row.given(w) : async () => {};
      try {
        const cardsBefore = (await w.k.s.get(`/api/supervisors/${id}/approvals`)).body.approvals.length;
        const answer = await ask(row.who === 'sp' ? w.sp : w.global, row.tool, row.args(w));
        const e = row.expect(tier);
        const cards = (await w.k.s.get(`/api/supervisors/${id}/approvals`)).body.approvals;
        if (e._tag === 'Refused') {
          t.true(answer.isError, textOf(answer));
          t.regex(textOf(answer), e.text);
        } else if (e._tag === 'Asks') {
          t.falsy(answer.isError, textOf(answer));
          t.like(answer.structuredContent, { awaitingApproval: true });
          const card = String(answer.structuredContent?.['card']);
          t.regex(textOf(answer), new RegExp(`waits for a person to approve card ${card}`));
          t.like(cards.find((c: { card: string }) => c.card === card), { tool: row.tool, decided: undefined });
        } else {
          t.falsy(answer.isError, textOf(answer));
          await e.check?.(t, w, answer);
        }
        if (e._tag !== 'Asks') t.is(cards.length, cardsBefore, 'no card unless AskFirst');
      } finally {
        await undo();
      }
    });
  }
}

test.serial('the tool lists: the supervisor-only tools only to those the spec names; change_setting only with its group on', async (t) => {
  const names = async (c: Client) => (await c.listTools()).tools.map((x) => x.name);
  const sp = await names(t.context.sp);
  const global = await names(t.context.global);
  t.true(['keep_supervisor_notes', 'hand_up', 'hand_over_run'].every((n) => sp.includes(n)));
  t.false(sp.includes('read_supervisor_activity'));
  t.true(['keep_supervisor_notes', 'read_supervisor_activity'].every((n) => global.includes(n)));
  t.false(global.includes('hand_up') || global.includes('hand_over_run'));
  // tool groups do not apply: archiving is off by default, yet listed
  t.true(sp.includes('archive_run'));
  t.false(sp.includes('change_setting'));
  t.regex(textOf(await ask(t.context.sp, 'change_setting', { change: { _tag: 'TriggerPollInterval', seconds: 30 } })), /settings tool group is off/);
  t.regex(textOf(await ask(t.context.global, 'hand_up', { text: 'hi' })), /for project supervisors only/);
  t.regex(textOf(await ask(t.context.sp, 'read_supervisor_activity', {})), /for the global supervisor only/);
});
