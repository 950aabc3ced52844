import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { PreviewEvent } from '../journal/preview-events.js';
import type { Previews } from '../projections/previews.js';
import type { PreviewStopReason } from '../domain/preview.js';
import { conflict, invalid, notFound, type Refusal } from './refusal.js';

// Preview commands: whether a run's preview may start, and recording what its process did. The
// process itself is lib/preview's; these decide only from the facts it passes.

type Decision = Either<Refusal, PreviewEvent[]>;

export interface StartFacts {
  readonly runId: string;
  readonly run: { readonly archived: boolean; readonly folders: number } | undefined;
  /** the project has a preview command (a setting or .svc/preview.json) */
  readonly hasCommand: boolean;
  readonly fileProblem: string | null;
}

/** may this run's preview start? (no events: the start is recorded once its process runs) */
export const decideStartPreview = (f: StartFacts): Either<Refusal, null> => {
  if (!f.run) return left(notFound('run', f.runId));
  if (f.run.archived) return left(conflict('an archived run has no folder to preview; bring it back first'));
  if (f.run.folders === 0) return left(conflict('the run has no worktree yet to preview'));
  if (!f.hasCommand) return left(invalid(f.fileProblem ?? 'the project has no preview command: set it in the project (preview) or in .svc/preview.json of its primary folder'));
  return right(null);
};

export const decidePreviewStarted = (ps: Previews, data: Extract<PreviewEvent, { type: 'PreviewStarted' }>['data']): Decision =>
  right([{ type: 'PreviewStarted', data }]);

/** a stop is recorded once per start: a second one (Stop after it exited) records nothing */
export const decidePreviewStopped = (ps: Previews, runId: string, reason: PreviewStopReason, detail: string | null): Decision =>
  ps.get(runId)?.running || reason === 'failed' ? right([{ type: 'PreviewStopped', data: { runId, reason, detail } }]) : right([]);

export const decideSetupRan = (data: Extract<PreviewEvent, { type: 'PreviewSetupRan' }>['data']): Decision =>
  right([{ type: 'PreviewSetupRan', data }]);
