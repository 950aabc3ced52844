import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ValueSpan } from './dot-graph.js';
import { quoteText, type Parsed } from './dot-values.js';

// `prompt="@prompts/plan.md"` reads a prompt from a file beside the workflow. A workflow file may
// come from a cloned repository, so a reference must stay inside the folder the workflow was found
// in (after symlinks): otherwise a project could pull ~/.ssh/id_rsa into a prompt sent to a model.

const MAX_PROMPT_BYTES = 256 * 1024;

/** the whole value is `@path` with no spaces; "@reviewer please look" is ordinary text */
export const fileRef = (value: string): string | undefined => /^@(\S+)$/.exec(value.trim())?.[1];

export interface PromptFileBase {
  /** folder of the workflow file; references are relative to it */
  readonly dir: string;
  /** folder a reference must stay inside (the origin folder); defaults to dir */
  readonly root?: string;
}

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
};

const realOrUndefined = (path: string): string | undefined => {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
};

export const readPromptFile = (ref: string, base: PromptFileBase | undefined): Parsed<{ text: string; path: string }> => {
  if (!base) return { ok: false, message: `@${ref}: only a workflow file can reference prompt files; keep this prompt inline` };
  if (isAbsolute(ref)) return { ok: false, message: `@${ref}: a prompt file is given relative to the workflow file` };
  const real = realOrUndefined(resolve(base.dir, ref));
  if (!real || !statSync(real).isFile()) return { ok: false, message: `@${ref}: prompt file not found` };
  const root = realOrUndefined(base.root ?? base.dir) ?? base.root ?? base.dir;
  if (!inside(root, real)) return { ok: false, message: `@${ref}: a prompt file must be inside the workflow's folder` };
  if (statSync(real).size > MAX_PROMPT_BYTES) return { ok: false, message: `@${ref}: prompt file is larger than 256 KiB` };
  return { ok: true, value: { text: readFileSync(real, 'utf8'), path: real } };
};

/** the source with each `@file` prompt value replaced by the file's text as a quoted DOT string */
export const inlineSource = (source: string, replaced: ReadonlyArray<{ span: ValueSpan; text: string }>): string => {
  const byStart = [...replaced].filter((r) => r.span.start >= 0).sort((a, b) => b.span.start - a.span.start);
  return byStart.reduce((s, r) => s.slice(0, r.span.start) + quoteText(r.text) + s.slice(r.span.end), source);
};
