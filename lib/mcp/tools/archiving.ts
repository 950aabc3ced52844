import { defineTool, type Tool } from '../tool.js';
import { runNotes } from '../args/common.js';
import { ArchiveRunArgs, KeepAttemptArgs, ResolveRunArgs } from '../../inputs/acting-args.js';

export const archiveRun: Tool = defineTool({
  name: 'archive_run',
  group: 'archiving',
  description: 'Archive a finished run (it leaves the runs list and its checkouts are removed) or bring it back with state Active. A running run is refused.',
  args: ArchiveRunArgs,
  notes: { ...runNotes, state: 'Archived or Active.' },
  call: (a, { api, actor }) => api.archive(a.run, a.state, a.reason, actor),
});

export const resolveRun: Tool = defineTool({
  name: 'resolve_run',
  group: 'archiving',
  description: 'Mark a run that ended without success as resolved: it leaves the runs needing attention. Resolving again has no effect.',
  args: ResolveRunArgs,
  notes: runNotes,
  call: (a, { api, actor }) => api.resolve(a.run, a.reason, actor),
});

export const keepAttempt: Tool = defineTool({
  name: 'keep_attempt',
  group: 'archiving',
  description: "Keep one of several attempts at a goal (runs started together with start_run's attempts): the other attempts of its group are archived (their worktrees removed, their journals kept) and the choice is recorded on the kept run. Refused while another attempt is still going, unless abortOthers is true (they are aborted first). Answers the kept run and the ids archived.",
  args: KeepAttemptArgs,
  notes: { ...runNotes, abortOthers: 'Abort the other attempts still going, then archive them (default false: refused while one goes).', reason: 'Why this attempt is kept.' },
  call: (a, { api, actor }) => api.keepAttempt(a.run, a.abortOthers ?? false, a.reason, actor),
});
