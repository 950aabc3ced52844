import '../helpers/env.js';
import test from 'ava';
import { mcpServer } from '../mcp/helpers/real.js';
import { history, startRun, untilStanding } from '../helpers/steer.js';

// A follow-up of a run whose workflow has a verify step runs that step after its turn, so the new
// work is checked the way the first was; without one it is the single turn. The scripted harness
// stands in for the CLI; the verify step here is a command (the shipped default's is an agent).

const CHECKED = `digraph checked {
  start  [kind=start]
  work   [kind=agent, prompt="{{goal}}"]
  verify [kind=command, label="No broken file", command="test ! -f broken.txt"]
  done   [kind=exit]
  start -> work -> verify
  verify -> done [condition="outcome=success"]
}`;

const shared = mcpServer({ workflows: { checked: CHECKED } });
test.after.always(async () => (await shared).close());

const stepsOf = async (runId: string): Promise<string[]> =>
  (await history(await shared, runId)).filter((e) => e.type === 'StepStarted').map((e) => e.data.node as string);

const followUp = async (workflow: string, text: string, standing: string) => {
  const s = await shared;
  const first = await startRun(s, { goal: '[write:one.txt=1][report:success]', workflow });
  await untilStanding(s, first, 'Succeeded');
  const r = await s.post(`/api/runs/${first}/follow-ups`, { text });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  const next = r.body.runId as string;
  return { next, run: await untilStanding(s, next, standing) };
};

test('a follow-up runs the verify step of the workflow it continues after its turn', async (t) => {
  const { next } = await followUp('checked', '[write:two.txt=2][report:success]', 'Succeeded');
  t.deepEqual(await stepsOf(next), ['follow_up', 'verify']);
  const wf = (await (await shared).get(`/api/runs/${next}/workflow`)).body;
  t.deepEqual(wf.nodes.map((n: any) => n.id), ['start', 'follow_up', 'verify', 'done']);
  t.regex(wf.source, /verify \[kind=command, label="No broken file"\]/);
});

test('a follow-up whose work fails the verify step fails with its reason', async (t) => {
  const { next } = await followUp('checked', '[write:broken.txt=oops][report:success]', 'Failed');
  t.deepEqual(await stepsOf(next), ['follow_up', 'verify']);
  const failed = (await history(await shared, next)).find((e) => e.type === 'RunFailed');
  t.regex(failed.data.reason, /step verify ended with failure/);
});

test('a follow-up of a workflow without a verify step is the one turn', async (t) => {
  const { next } = await followUp('two', '[write:two.txt=2][report:success]', 'Succeeded');
  t.deepEqual(await stepsOf(next), ['follow_up']);
});
