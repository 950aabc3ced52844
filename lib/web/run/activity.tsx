import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ActivityKind } from '../../harness/activity.js';
import type { ActivityRow } from '../../state/activity-log.js';
import { api, type ApiError } from '../api.js';
import { Link } from '../ui/link.js';
import { duration, type StepInfo } from './timeline.js';
import { LocalTime } from '../ui/local-time.js';

// One card per tool call, folded to a line (what, on what, how it went) and opened for its output.
// A failed call says so in words, and its card opens by itself. An edit or a write links to its
// file in the Worktree tab's diff.

const VERB: Record<ActivityKind, string> = { read: 'Read', edit: 'Edited', write: 'Wrote', command: 'Ran', search: 'Searched', mcp: 'Tool', question: 'Asked', other: 'Tool' };

// Calls that are svc's own plumbing or the CLI's, said in words; the raw tool name stays in the
// opened card (its first line).
const PLAIN_BY_TITLE: Record<string, readonly [string, string]> = {
  'svc.report_outcome': ['Reported', 'how the step went'],
  'svc.ask_question': ['Asked', 'you a question'],
};
const PLAIN_BY_TOOL: Record<string, readonly [string, string]> = { ToolSearch: ['Looked up', 'the tools it can use'] };

const plainOf = (r: ActivityRow): readonly [string, string] => PLAIN_BY_TITLE[r.title] ?? PLAIN_BY_TOOL[r.tool] ?? [VERB[r.kind], r.title];

const statusText = (r: ActivityRow): string =>
  r.status === 'running' ? 'running…' : r.status === 'ok' ? 'done' : r.exitCode !== undefined ? `failed (exit ${r.exitCode})` : 'failed';

export const diffHref = (runId: string, path: string): string => `/runs/${encodeURIComponent(runId)}?tab=worktree&file=${encodeURIComponent(path)}`;

const Output = ({ runId, row }: { readonly runId: string; readonly row: ActivityRow }) => {
  const [whole, setWhole] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const text = whole ?? row.output ?? '';
  // a page carries a preview (cut, with "…"); the row's own read has the whole output
  const more = whole === null && (row.outputChars ?? 0) > (row.output ?? '').replace(/…$/, '').length;
  const load = () => api<{ row: ActivityRow }>(`runs/${encodeURIComponent(runId)}/activity/${row.id}`).then(
    (b) => setWhole(b.row.output ?? ''), (e: ApiError) => setError(e.detail));
  if (!text && row.status === 'running') return <p class="muted">Still running.</p>;
  return (
    <>
      {text ? <pre class="output" tabIndex={0} aria-label={`Output of ${row.title}`}>{text}</pre> : <p class="muted">No output.</p>}
      {more ? <button type="button" class="link-like" onClick={() => void load()}>Show all {(row.outputChars ?? 0).toLocaleString('en')} characters</button> : null}
      {error ? <p class="error">{error}</p> : null}
    </>
  );
};

export const ActivityCard = ({ runId, row }: { readonly runId: string; readonly row: ActivityRow }) => (
  <li class={`card k-${row.kind} s-${row.status}`} data-kind={row.kind} data-status={row.status} data-activity={row.id}>
    <details open={row.status === 'error'}>
      <summary>
        <span class="verb">{plainOf(row)[0]}</span> {plainOf(row)[1] === row.title ? <code class="title">{row.title}</code> : <span class="title">{plainOf(row)[1]}</span>} <span class="status">{statusText(row)}</span>
      </summary>
      <div class="card-body">
        <p class="muted card-meta">
          {row.tool}{plainOf(row)[1] === row.title ? '' : ` ${row.title}`} · <LocalTime at={row.startedAt} />
          {row.endedAt ? ` · ${duration(row.startedAt, row.endedAt) || '0s'}` : ''}
        </p>
        {row.path && (row.kind === 'edit' || row.kind === 'write') ? <p><Link href={diffHref(runId, row.path)}>Show {row.path} in the diff</Link></p> : null}
        <Output runId={runId} row={row} />
      </div>
    </details>
  </li>
);

// A step not ended is not always running: a gate waits for a person, a wait step for its time,
// and a paused run's step runs no more until it is resumed.
const openText = (step: StepInfo, paused: boolean): string =>
  step.kind === 'gate' ? 'waiting for you' : step.kind === 'wait' ? 'waiting' : paused ? 'paused' : 'running';

const endText = (step: StepInfo, paused = false): string => {
  const text = step.end?.text ?? '';
  if (!step.end) return openText(step, paused);
  return / succeeded/.test(text) ? 'succeeded' : / failed/.test(text) ? 'failed' : / interrupted/.test(text) ? 'interrupted' : 'ended';
};

/** The head of a step's group: node, CLI and model, how long it took, how it ended. */
export const StepHead = ({ step, continued, id, cost, paused = false }: { readonly step: StepInfo; readonly continued: boolean; readonly id: string; readonly cost?: ComponentChildren; readonly paused?: boolean }) => {
  const took = duration(step.startedAt, step.end?.at);
  const state = endText(step, paused);
  return (
    <h3 class="step-head" id={id}>
      <span>Step <strong>{step.node ?? step.stepId}</strong>{continued ? ' (continued)' : ''}</span>
      {step.harness ? <span class="muted">{step.harness}{step.model ? ` · ${step.model}` : ''}</span> : null}
      {continued ? null : <span class={`muted step-end e-${state.replace(/ /g, '-')}`}>{state}{took ? ` · ${took}` : ''}</span>}
      {continued ? null : cost}
    </h3>
  );
};
