import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { PreviewCommand } from '../../domain/preview.js';
import type { ProjectView } from '../../domain/runs.js';
import { primaryFolderPath } from '../../projections/projects.js';
import { PreviewCommandInput } from '../inputs/preview.js';
import { describeErrors } from '../inputs/describe.js';

// Which command a project's preview runs: its setting, else .svc/preview.json in its primary folder,
// decoded by the same decoder as the setting (lib/inputs/preview.ts), so the file cannot say more.

export const PREVIEW_FILE = join('.svc', 'preview.json');

export interface FoundCommand {
  readonly command: (PreviewCommand & { readonly from: 'setting' | 'file' }) | null;
  /** the file is there but not taken: why */
  readonly fileProblem: string | null;
}

const fromFile = (folder: string): FoundCommand => {
  let text: string;
  try {
    text = readFileSync(join(folder, PREVIEW_FILE), 'utf8');
  } catch {
    return { command: null, fileProblem: null };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { command: null, fileProblem: `${PREVIEW_FILE} is not JSON` };
  }
  const d = PreviewCommandInput.decode(raw);
  if (isLeft(d)) return { command: null, fileProblem: `${PREVIEW_FILE}: ${describeErrors(d.left)}` };
  return { command: { argv: d.right.argv, setup: d.right.setup ?? null, portEnv: d.right.portEnv ?? 'PORT', from: 'file' }, fileProblem: null };
};

export const previewCommandOf = (project: ProjectView): FoundCommand => {
  const file = fromFile(primaryFolderPath(project));
  if (project.preview) return { command: { ...project.preview, from: 'setting' }, fileProblem: file.fileProblem };
  return file;
};
