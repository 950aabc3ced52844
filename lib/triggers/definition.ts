import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { Cron } from 'croner';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { TriggerDefinition, TriggerSource } from '../../journal/trigger-events.js';
import { findProject } from '../../projections/projects.js';
import type { TriggerPort } from './port.js';
import { quoted } from '../../domain/quoted.js';

// The facts about a definition that need I/O: the project, its workflow and the workflow's
// inputs, and whether the source can work at all. The answer is the first problem, or null.

/** a croner job used only to compute instants (never started); throws on a bad pattern or zone */
export const cronOf = (cron: string, timeZone: string): Cron => {
  const c = new Cron(cron, { timezone: timeZone, paused: true });
  c.nextRun(); // an unknown time zone only shows when an instant is computed
  return c;
};

const REPOSITORY = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/;

const folderProblem = (folder: string): string | null => {
  if (!isAbsolute(folder)) return `folder ${JSON.stringify(folder)} must be an absolute path`;
  try {
    return statSync(folder).isDirectory() ? null : `${quoted(folder)} is not a folder`;
  } catch {
    return `${quoted(folder)} does not exist`;
  }
};

export const sourceProblem = (s: TriggerSource): string | null => {
  switch (s._tag) {
    case 'Schedule':
      try {
        cronOf(s.cron, s.timeZone);
        return null;
      } catch (err) {
        return `source: ${(err as Error).message}`;
      }
    case 'CodeHost':
      if (!REPOSITORY.test(s.repository)) return `source.repository ${JSON.stringify(s.repository)} must be owner/name`;
      if (s.label === undefined && s.command === undefined) return 'source needs a label to watch on issues, a command word for pull request comments, or both';
      if (s.label !== undefined && s.label.trim() === '') return 'source.label must not be blank';
      if (s.command !== undefined && !/^\S{1,40}$/.test(s.command)) return 'source.command must be one word (e.g. /svc)';
      return null;
    case 'Webhook': return null;
    case 'Files':
      if (s.glob.trim() === '') return 'source.glob must not be blank';
      if (s.debounceMs !== undefined && !(Number.isInteger(s.debounceMs) && s.debounceMs >= 0 && s.debounceMs <= 60_000)) return 'source.debounceMs must be a whole number from 0 to 60000';
      return folderProblem(s.folder);
  }
};

export const definitionProblem = (port: TriggerPort, d: TriggerDefinition): string | null => {
  const project = findProject(port.projects(), d.project);
  if (!project) return `unknown project ${JSON.stringify(quoted(d.project))}`;
  const wf = port.loadWorkflow(project, d.workflow);
  if (isLeft(wf)) return wf.left;
  const undeclared = Object.keys(d.inputs).filter((k) => !wf.right.inputs.includes(k));
  if (undeclared.length) return `input ${undeclared.slice(0, 5).map((k) => JSON.stringify(quoted(k))).join(', ')} is not declared by workflow ${wf.right.name} (it declares: ${wf.right.inputs.join(', ') || 'no inputs'})`;
  return sourceProblem(d.source);
};
