import { defineTool, type Tool } from '../tool.js';
import { runNotes } from '../args/common.js';
import { GetPreviewArgs, SetProjectPreviewArgs, StartPreviewArgs, StopPreviewArgs } from '../../inputs/preview.js';

// A run's preview (docs/preview.md), with the same decoders as POST/DELETE/GET /api/runs/{id}/preview.

export const startPreview: Tool = defineTool({
  name: 'start_preview',
  group: 'controlling',
  description: "Start the run's preview: the project's preview command in the run's worktree on a port svc picks, reached through svc at /preview/<run>/. Answers at once with its state (setting-up or starting); get_preview shows when it runs. The oldest idle preview is stopped when the limit is reached.",
  args: StartPreviewArgs,
  notes: runNotes,
  call: (a, { api }) => api.startPreview(a.run),
});

export const stopPreview: Tool = defineTool({
  name: 'stop_preview',
  group: 'controlling',
  description: "Stop the run's preview (its whole process group). Stopping one that is not running changes nothing.",
  args: StopPreviewArgs,
  notes: runNotes,
  call: (a, { api }) => api.stopPreview(a.run),
});

export const getPreview: Tool = defineTool({
  name: 'get_preview',
  group: 'reading',
  description: "The run's preview: off, setting-up, starting, running (with its url) or stopped (with why), and the command it runs.",
  args: GetPreviewArgs,
  notes: runNotes,
  call: (a, { api }) => api.preview(a.run),
});

export const setProjectPreview: Tool = defineTool({
  name: 'set_project_preview',
  group: 'settings',
  description: 'Set a project\'s preview command: {argv, setup?, portEnv?} (argv lists, never a shell string; portEnv defaults to PORT), or null to remove it (then .svc/preview.json in the primary folder is read).',
  args: SetProjectPreviewArgs,
  notes: { project: 'The project id or name.', preview: '{argv: ["npm","run","dev"], setup: ["npm","install"], portEnv: "PORT"} or null.' },
  call: (a, { api }) => api.setProjectPreview(a.project, a.preview === null ? null : { argv: a.preview.argv, setup: a.preview.setup ?? null, portEnv: a.preview.portEnv ?? 'PORT' }),
});
