import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Database, Key } from 'lmdb';
import type { Origin } from '../../domain/workflow.js';
import { parsePersona, type PersonaParse } from './persona-file.js';
import type { PromptFileBase } from './prompt-files.js';

// Where workflows and personas are read from. Folder origins are listed lowest precedence first
// so that a later one simply overwrites an earlier one of the same name.

export const WORKFLOW_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** why a name cannot name a workflow, or undefined when it can */
export const workflowNameProblem = (name: string): string | undefined =>
  WORKFLOW_NAME.test(name) ? undefined : `workflow name ${JSON.stringify(name)} must be 1-64 characters of a-z, 0-9, _ and -, starting with a letter or digit`;

export interface FolderOrigin {
  readonly origin: Origin;
  readonly dir: string;
}

export interface WorkflowSource {
  readonly name: string;
  readonly origin: Origin;
  readonly source: string;
  /** absent for custom workflows, which live in the store and keep prompts inline */
  readonly files?: PromptFileBase;
}

export interface PersonaSource {
  readonly name: string;
  readonly origin: Origin;
  /** the persona file's text as written */
  readonly source: string;
  readonly parsed: PersonaParse;
}

export const projectBase = (primaryFolderPath: string): string => join(primaryFolderPath, '.svc');

/** workflow folders, lowest precedence first */
export const workflowFolders = (shippedDir: string, home: string, primaryFolderPath: string): FolderOrigin[] => [
  { origin: 'shipped', dir: shippedDir },
  { origin: 'home', dir: join(home, 'workflows') },
  { origin: 'project', dir: join(projectBase(primaryFolderPath), 'workflows') },
];

/** persona folders, lowest precedence first */
export const personaFolders = (shippedDir: string, home: string, primaryFolderPath: string): FolderOrigin[] => [
  { origin: 'shipped', dir: shippedDir },
  { origin: 'home', dir: join(home, 'personas') },
  { origin: 'project', dir: join(projectBase(primaryFolderPath), 'personas') },
];

// Files whose name is not a valid workflow name are skipped: they could not be started by name.
const filesIn = (dir: string, ext: string): { name: string; path: string }[] => {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries
    .filter((f) => f.endsWith(ext) && WORKFLOW_NAME.test(f.slice(0, -ext.length)))
    .map((f) => ({ name: f.slice(0, -ext.length), path: join(dir, f) }))
    .filter((f) => isFile(f.path))
    .sort((a, b) => a.name.localeCompare(b.name));
};

const isFile = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

const readText = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // removed between listing and reading: as if it was never there
  }
};

export const readWorkflowFolder = ({ origin, dir }: FolderOrigin, into: Map<string, WorkflowSource>): void => {
  for (const { name, path } of filesIn(dir, '.dot')) {
    const source = readText(path);
    if (source !== undefined) into.set(name, { name, origin, source, files: { dir, root: dir } });
  }
};

export const readPersonaFolder = ({ origin, dir }: FolderOrigin, into: Map<string, PersonaSource>): void => {
  for (const { name, path } of filesIn(dir, '.md')) {
    const text = readText(path);
    if (text !== undefined) into.set(name, { name, origin, source: text, parsed: parsePersona(name, origin, text) });
  }
};

/** custom personas (saved through the API): key = name, value = the persona file's text */
export const readCustomPersonas = (db: Database<string, Key>, into: Map<string, PersonaSource>): void => {
  for (const { key, value } of db.getRange()) {
    if (typeof key === 'string' && typeof value === 'string') into.set(key, { name: key, origin: 'custom', source: value, parsed: parsePersona(key, 'custom', value) });
  }
};

export const readCustom = (db: Database<string, Key>, into: Map<string, WorkflowSource>): void => {
  for (const { key, value } of db.getRange()) {
    if (typeof key === 'string' && typeof value === 'string') into.set(key, { name: key, origin: 'custom', source: value });
  }
};
