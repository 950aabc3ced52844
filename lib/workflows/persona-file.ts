import type { Origin, Persona } from '../../domain/workflow.js';
import { harnessMessage, isHarness, isToolAccess, toolsMessage } from './parse-graph-attrs.js';

// A persona file `<name>.md`: an optional front-matter header, then the prompt body.
//
//   ---
//   harness: claude        (optional: claude, codex, opencode)
//   model: sonnet          (optional: passed to the harness as is)
//   tools: read-only       (optional: read-only, edit, full)
//   description: one line  (optional: shown to people, not to the agent)
//   ---
//   You are a careful reviewer...
//
// Lines in the header are `key: value`; blank lines and lines starting with # are ignored.

export interface PersonaParse {
  readonly persona: Persona | undefined;
  readonly description: string;
  /** why the file does not load; empty when it does */
  readonly problems: readonly string[];
}

const KEYS = ['harness', 'model', 'tools', 'description'] as const;
const MODEL = /^\S{1,200}$/;
const MAX_DESCRIPTION = 300;

const splitFrontMatter = (text: string): { header: string[]; body: string } | string => {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return { header: [], body: text };
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
  if (end < 0) return 'the header opened with --- is never closed with ---';
  return { header: lines.slice(1, end), body: lines.slice(end + 1).join('\n') };
};

const readHeader = (lines: readonly string[], problems: string[]): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const line of lines) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const m = /^\s*([A-Za-z_][\w-]*)\s*:\s*(.*?)\s*$/.exec(line);
    if (!m) problems.push(`header line "${line.trim()}" is not key: value`);
    else if (!(KEYS as readonly string[]).includes(m[1])) problems.push(`unknown header key ${m[1]} (use ${KEYS.join(', ')})`);
    else if (m[1] in out) problems.push(`header key ${m[1]} is given twice`);
    else out[m[1]] = m[2].replace(/^(["'])(.*)\1$/, '$2');
  }
  return out;
};

export const parsePersona = (name: string, origin: Origin, text: string): PersonaParse => {
  const split = splitFrontMatter(text);
  if (typeof split === 'string') return { persona: undefined, description: '', problems: [split] };
  const problems: string[] = [];
  const h = readHeader(split.header, problems);
  if (h.harness && !isHarness(h.harness)) problems.push(harnessMessage(h.harness));
  if (h.tools && !isToolAccess(h.tools)) problems.push(toolsMessage(h.tools));
  if (h.model && !MODEL.test(h.model)) problems.push(`model ${JSON.stringify(h.model.slice(0, 80))} must be 1-200 characters without spaces (passed to the harness as is)`);
  if ((h.description ?? '').length > MAX_DESCRIPTION) problems.push(`description is longer than ${MAX_DESCRIPTION} characters`);
  const prompt = split.body.trim();
  if (prompt === '') problems.push('the persona has no prompt (write it below the header)');
  const description = h.description ?? '';
  if (problems.length > 0) return { persona: undefined, description, problems };
  const persona: Persona = {
    name, origin, prompt,
    ...(h.harness && isHarness(h.harness) ? { harness: h.harness } : {}),
    ...(h.model ? { model: h.model } : {}),
    ...(h.tools && isToolAccess(h.tools) ? { tools: h.tools } : {}),
  };
  return { persona, description, problems };
};
