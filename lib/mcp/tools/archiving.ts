import { defineTool, type Tool } from '../tool.js';
import { runNotes } from '../args/common.js';
import { ArchiveRunArgs, KeepAttemptArgs, ResolveRunArgs } from '../../inputs/acting-args.js';

export const archiveRun: Tool = defineTool({
  name: 'archive_run',
  group: 'archiving',
  description: "Archive a finished run (it leaves the runs list; its worktrees are removed once their uncommitted, staged and untracked work is kept under refs/svc/kept) or bring it back with state Active (the worktrees are made again with that work restored). A running run is refused. Answers the run, its state, and kept: what the archive keeps or the unarchive restores.",
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
  description: "Keep one of several attempts at a goal (runs started together with start_run's attempts): the other attempts of its group are archived (their worktrees removed once their uncommitted work is kept, restored if unarchived; their journals kept) and the choice is recorded on the kept run. Refused while another attempt is still going, unless abortOthers is true (they are aborted first). Answers the kept run, the ids archived, and kept: what is kept of each.",
  args: KeepAttemptArgs,
  notes: { ...runNotes, abortOthers: 'Abort the other attempts still going, then archive them (default false: refused while one goes).', reason: 'Why this attempt is kept.' },
  call: (a, { api, actor }) => api.keepAttempt(a.run, a.abortOthers ?? false, a.reason, actor),
});
