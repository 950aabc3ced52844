import { defineTool, type Tool } from '../tool.js';
import { runNotes } from '../args/common.js';
import { ArchiveRunArgs, ResolveRunArgs } from '../args/acting.js';

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
