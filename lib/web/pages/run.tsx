import type { RunDetail } from '../../../projections/run-shapes.js';
import type { PageProps } from '../page-props.js';
import { navigate } from '../router.js';
import { RunActions } from '../run/actions.js';
import { RunPreview } from '../run/preview.js';
import { RunHead } from '../run/run-head.js';
import { Controls } from '../run/controls.js';
import { useRun } from '../run/data.js';
import { History, Log } from '../run/feeds.js';
import { WorkflowGraph } from '../run/graph.js';
import { PullRequest } from '../run/pull-request.js';
import { Gate } from '../run/gate.js';
import { Question } from '../run/question.js';
import { GoalForm, MessageBox } from '../run/steer.js';
import { FollowUpForm, FollowUpLinks } from '../run/follow-up.js';
import { ForkLinks } from '../run/fork.js';
import { RunCost } from '../run/step-cost.js';
import { addRunStyle } from '../run/style.js';
import { Tabs, type TabDef } from '../run/tabs.js';
import { Thread } from '../run/thread.js';
import { Worktree } from '../run/worktree.js';
import { StandingBadge } from '../ui/badge.js';
import { waitingText } from './runs/quota.js';
import { ErrorNote, Loading, PageHeading } from '../ui/page.js';
import { CompareWith } from '../attempts/compare-with.js';
import { RunLink } from '../ui/run-link.js';
import { GoalLine } from '../run/goal-line.js';
import { MachineFact } from '../run/machine.js';

// One run, live over `/api/events?run=<id>&log`: a compact header (title and one line of facts,
// then one toolbar: the controls, Compare with…, the actions on the run, and a More menu for the
// rare ones), the agent's question or the gate, the goal on one line, and the content in tabs
// (thread, log, history, workflow graph, worktree and diff, pull request), so the tabs start on the
// first screen. The message box, or Follow up once the run ended, closes the thread like a chat's
// input. The selected tab is kept in the address (`?tab=`), so a link can open it.

const TABS: readonly TabDef[] = [
  { id: 'thread', label: 'Thread' }, { id: 'log', label: 'Log' }, { id: 'history', label: 'History' },
  { id: 'workflow', label: 'Workflow' }, { id: 'worktree', label: 'Worktree' }, { id: 'pr', label: 'Pull request' },
];

const ENDED = ['Succeeded', 'Failed', 'Aborted'];

addRunStyle();

// Whether the latest step that ran in the run's folder ran in svc's sandbox (docs/sandbox.md), and why not.
const SandboxFact = ({ sandbox }: { readonly sandbox: NonNullable<RunDetail['sandbox']> }) =>
  sandbox.sandboxed
    ? <span class="muted" data-sandbox="on">sandboxed</span>
    : <span class="badge warning" data-sandbox="off" title={sandbox.reason}>unsandboxed: {sandbox.reason}</span>;

// The phase in words, where it says more than the standing's badge (a Paused run at a gate waits
// for the person; "phase AtGate" was the engine's word). An ended run's step is its exit node
// ("step done"), which says nothing the badge does not.
const PHASE_WORDS: Readonly<Record<string, string>> = {
  AtGate: 'at a gate, waiting for you', AwaitingAnswer: 'waiting for your answer', Preparing: 'preparing its folders',
};

const Facts = ({ run }: { readonly run: RunDetail }) => {
  const s = run.currentStepSettings;
  return (
    <p class="row run-facts">
      <StandingBadge standing={run.standing} />
      {PHASE_WORDS[run.phase] ? <span data-phase={run.phase}>{PHASE_WORDS[run.phase]}</span> : null}
      {run.currentStep && run.phase !== 'Ended' ? <span>at step <strong>{run.currentStep}</strong></span> : null}
      <span class="muted">{run.project} · {run.workflow}</span>
      {s ? <span class="muted">{s.harness.value}{s.model.value ? ` · ${s.model.value}` : ''}</span> : null}
      <RunCost run={run} />
      {run.pullRequestLoop ? <span class="pr-loop-fact">{run.pullRequestLoop.text}</span> : null}
      {run.outcome ? <span class="muted">outcome {run.outcome}</span> : null}
      {run.merged?.length ? <span class="badge" data-merged="">merged</span> : null}
      {run.archived ? <span class="badge">archived</span> : null}
      {run.resolved ? <span class="badge">resolved</span> : null}
      {run.sandbox ? <SandboxFact sandbox={run.sandbox} /> : null}
      <MachineFact run={run} />
      {waitingText(run.waitingOn, Date.now()) ? <span class="note" data-quota={run.waitingOn?.harness}>{waitingText(run.waitingOn, Date.now())}</span> : null}
    </p>
  );
};

// A restarted run is a new run: point to it (the detail names it, as the old run's history does).
const RestartedAs = ({ run }: { readonly run: RunDetail }) =>
  run.restartedAs ? <p class="note">Restarted as <RunLink run={run} id={run.restartedAs} />.</p> : null;

export const Page = ({ params, query }: PageProps) => {
  const runId = params['id']!;
  const data = useRun(runId);
  const run = data.run.value;
  const error = data.error.value;
  const tab = TABS.some((t) => t.id === query.get('tab')) ? query.get('tab')! : 'thread';
  if (!run) return error ? <section><PageHeading title="Run" /><ErrorNote error={error} /></section> : <Loading what="the run" />;
  const going = !ENDED.includes(run.standing);
  const select = (id: string) => {
    const q = new URLSearchParams(location.search);
    if (id === 'thread') q.delete('tab'); else q.set('tab', id);
    const qs = q.toString();
    navigate(`${location.pathname}${qs ? `?${qs}` : ''}`, { replace: true });
  };
  const canFollowUp = !going && !run.archived;
  return (
    <article class="run-page" aria-labelledby="page-title">
      <RunHead>
        <PageHeading title={run.title}>
          <Facts run={run} />
        </PageHeading>
        <div id="run-controls" class="run-toolbar">
          <Controls data={data} run={run} />
          <CompareWith runId={runId} project={run.projectId} />
          <RunActions data={data} run={run} />
        </div>
      </RunHead>
      <ErrorNote error={error} />
      <RestartedAs run={run} />
      <FollowUpLinks run={run} />
      {run.attempt ? <p class="muted">Attempt {run.attempt.index + 1} of {run.attempt.of}{run.attempt.kept ? ' · kept' : ''}</p> : null}
      <ForkLinks run={run} />
      {data.stream.value === 'retrying' ? <p class="muted" role="status">Reconnecting to the server…</p> : null}
      <Question data={data} run={run} />
      <Gate data={data} run={run} />
      <GoalLine goal={run.goal} />
      {run.canReviseGoal ? <GoalForm data={data} run={run} /> : null}
      {run.undeliveredMessages?.length ? (
        <section class="panel" aria-labelledby="undelivered-title">
          <h2 id="undelivered-title">Messages never delivered</h2>
          <ul>{run.undeliveredMessages.map((m) => <li key={m.id}><span class="prose">{m.text}</span> <span class="muted">({m.reason})</span></li>)}</ul>
        </section>
      ) : null}
      <RunPreview data={data} run={run} />
      <Tabs label="Run content" tabs={TABS} selected={tab} onSelect={select}>
        {/* the message box and Follow up sit where the conversation ends, like a chat's input */}
        {tab === 'thread' ? <><Thread data={data} />{going ? <MessageBox data={data} run={run} /> : canFollowUp ? <FollowUpForm run={run} /> : null}</>
          : tab === 'log' ? <Log data={data} />
          : tab === 'history' ? <History data={data} />
          : tab === 'workflow' ? <WorkflowGraph runId={runId} current={run.currentStep} />
          : tab === 'worktree' ? <Worktree runId={runId} changes={data.changes.value} />
          : <PullRequest run={run} changes={data.changes.value} />}
      </Tabs>
    </article>
  );
};
