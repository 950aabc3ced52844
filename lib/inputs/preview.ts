import * as t from 'io-ts';
import { args, fields, extend } from './object.js';
import { optionalReason, ProjectRef, RunId } from './common.js';
import { intRange } from './kinds.js';

// A project's preview command and the preview actions on a run, one decoder each for both doors
// (PATCH /api/projects/{id} `preview` and set_project_preview; POST/DELETE /api/runs/{id}/preview and
// start_preview/stop_preview), and the same decoder reads a project's .svc/preview.json.

// an argv, never a shell string: the program first (not blank), at most 64 arguments, no NUL
const Argv = t.refinement(t.array(t.string), (a) => a.length >= 1 && a.length <= 64 && a[0]!.trim() !== '' && a.every((s) => !s.includes('\0')),
  'an argv: a list of strings, the program first (not blank), at most 64, no shell string');
const EnvName = t.refinement(t.string, (s) => /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(s), 'an environment variable name (letters, digits, _; not starting with a digit)');


/** {argv, setup?, portEnv?}: setup null or missing is no setup; portEnv defaults to PORT */
export const PreviewCommandInput = fields({ argv: Argv }, { setup: t.union([Argv, t.null]), portEnv: EnvName });
export type PreviewCommandInputOf = t.TypeOf<typeof PreviewCommandInput>;

export const PreviewStartInput = fields({}, optionalReason);
export const PreviewStopInput = fields({}, optionalReason);

export const StartPreviewArgs = extend(PreviewStartInput, { run: RunId });
export const StopPreviewArgs = extend(PreviewStopInput, { run: RunId });
export const GetPreviewArgs = args({ run: RunId });
export const SetProjectPreviewArgs = args({ project: ProjectRef, preview: t.union([PreviewCommandInput, t.null]) });

