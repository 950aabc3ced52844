import type { ThreadRow } from '../../../projections/thread.js';
import { ActivityCard, StepHead } from './activity.js';
import type { RunData } from './data.js';
import { ForkButton, forkableAt } from './fork.js';
import { useFollow } from './follow.js';
import { StepCost, stepUsageOf } from './step-cost.js';
import { StepMachine } from './machine.js';
import { heldFrom, shownFrom, stepsOf, timeline, type Item } from './timeline.js';
import { LocalTime } from '../ui/local-time.js';

// The Thread: what was said and done, oldest first. Each step's rows and its agent's tool calls
// (activity cards) sit under a step heading; the rest (the goal, messages, controls) between
// them. A live page follows the newest row unless the person has scrolled up; then a button
// takes them back down.

const who = (r: ThreadRow) => (r.authorName ? `${r.author} ${r.authorName}` : r.author === 'run-agent' ? 'agent' : r.author);

const Row = ({ r }: { readonly r: ThreadRow }) => (
  <li class={`t-${r.kind} a-${r.author}`} data-kind={r.kind}>
    <div class="meta"><span class="who">{who(r)}</span> <span class="muted">{r.kind}</span> <LocalTime at={r.at} class="muted" /></div>
    <p class="prose">{r.text}</p>
    {r.reason ? <p class="muted reason">Reason: {r.reason}</p> : null}
  </li>
);

// The step's own start row says what its heading already says.
const shown = (i: Item): boolean => !('thread' in i && i.thread.kind === 'step' && / started$/.test(i.thread.text));

const ItemView = ({ runId, item }: { readonly runId: string; readonly item: Item }) =>
  'thread' in item ? <Row r={item.thread} /> : <ActivityCard runId={runId} row={item.activity} />;

// "Fork from here" under the heading of a step whose end a fork can start from
const stepFork = (data: RunData, stepId: string, continued: boolean) => {
  const run = data.run.value;
  const end = continued ? undefined : forkableAt(run, { stepId });
  return run && end ? <div class="step-fork"><ForkButton run={run} end={end} /></div> : null;
};

export const Thread = ({ data }: { readonly data: RunData }) => {
  const rows = data.thread.items.value;
  const activity = data.activity.items.value;
  const ended = activity.reduce((n, a) => n + (a.status === 'running' ? 0 : 1), 0);
  const loading = data.thread.loading.value || data.activity.loading.value;
  const follow = useFollow(loading || rows.length === 0 ? null : `${rows.at(-1)?.id}:${activity.at(-1)?.id}:${ended}`);
  const earlier = data.thread.before.value !== null || data.activity.before.value !== null;
  const held = heldFrom(shownFrom(rows, activity, data.thread.before.value !== null, data.activity.before.value !== null), rows, activity);
  const blocks = timeline(held.thread, held.activity, stepsOf(rows));
  const run = data.run.value;
  return (
    <div>
      {earlier ? <button type="button" class="earlier" disabled={loading} onClick={() => void Promise.all([data.earlier('thread'), data.earlier('activity')])}>{loading ? 'Loading…' : 'Show earlier'}</button> : null}
      {blocks.length === 0 ? <p class="muted">Nothing said yet.</p> : (
        <ol class="thread" aria-label="Thread">
          {blocks.map((b, n) => {
            if (b.kind === 'row') return <Row key={`r${b.row.id}`} r={b.row} />;
            const id = `step-${b.step.stepId}-${n}`;
            return (
              <li key={`s${b.step.stepId}-${n}`} class="step-group" data-step={b.step.node}>
                {/* a group, not a section: a step visited twice has the same heading, and two region
                    landmarks may not share a name */}
                <div role="group" aria-labelledby={id}>
                  <StepHead step={b.step} continued={b.continued} id={id} paused={run?.standing === 'Paused'} cost={<><StepMachine run={run} stepId={b.step.stepId} /><StepCost usage={stepUsageOf(run, b.step.stepId)} /></>} />
                  {stepFork(data, b.step.stepId, b.continued)}
                  <ol class="step-items" aria-label={`Step ${b.step.node ?? ''}`.trim()}>
                    {b.items.filter(shown).map((i) => <ItemView key={'thread' in i ? `r${i.thread.id}` : `a${i.activity.id}`} runId={data.runId} item={i} />)}
                  </ol>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {follow.behind ? <button type="button" class="jump-latest" onClick={follow.jump}>Jump to latest</button> : null}
    </div>
  );
};
