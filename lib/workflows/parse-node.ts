import { nodeAttrWarning } from './attributes.js';
import { addError, addWarning, type Findings } from './diagnostics.js';
import type { DotNode } from './dot-graph.js';
import { parseDuration, unescapeText } from './dot-values.js';
import { NODE_KINDS, type NodeKind, type StepNode } from '../../domain/workflow.js';
import { readStepChoices } from './parse-graph-attrs.js';
import { deliverWatchProblems } from './deliver-watch.js';
import { PREVIEW_URL } from '../../domain/preview.js';
import { fileRef, readPromptFile, type PromptFileBase } from './prompt-files.js';

// One node statement to one StepNode, reporting what an author got wrong on it. Answers undefined
// when the node has no usable kind: nothing else about it can be judged.

export interface NodeParse {
  readonly node: StepNode | undefined;
  /** prompt files read for this node, by their @reference */
  readonly files: ReadonlyMap<string, { text: string; path: string }>;
}

const isKind = (s: string): s is NodeKind => (NODE_KINDS as readonly string[]).includes(s);

const readKind = (n: DotNode, f: Findings): NodeKind | undefined => {
  const kind = n.attrs.kind;
  if (kind === undefined) addError(f, n.id, 'kind', `node has no kind (use one of ${NODE_KINDS.join(', ')})`);
  else if (!isKind(kind)) addError(f, n.id, 'kind', `unknown node kind ${kind} (use one of ${NODE_KINDS.join(', ')})`);
  else return kind;
  return undefined;
};

const readPrompt = (n: DotNode, base: PromptFileBase | undefined, files: Map<string, { text: string; path: string }>, f: Findings): string | undefined => {
  const raw = n.attrs.prompt;
  if (raw === undefined) return void addError(f, n.id, 'prompt', 'an agent node needs a prompt');
  const ref = fileRef(raw);
  const text = ref === undefined ? unescapeText(raw) : fileText(n.id, ref, base, files, f);
  if (text !== undefined && text.trim() === '') return void addError(f, n.id, 'prompt', ref ? `@${ref}: prompt file is empty` : 'prompt is empty');
  return text;
};

const fileText = (id: string, ref: string, base: PromptFileBase | undefined, files: Map<string, { text: string; path: string }>, f: Findings): string | undefined => {
  const read = readPromptFile(ref, base);
  if (!read.ok) return void addError(f, id, 'prompt', read.message);
  files.set(ref, read.value);
  return read.value.text;
};

const waitFields = (n: DotNode, f: Findings): Partial<StepNode> => {
  const text = n.attrs.duration;
  const d = text === undefined ? { ok: false as const, message: 'a wait node needs a duration, e.g. 30s, 5m, 2h, 1d' } : parseDuration(text);
  if (d.ok) return { durationMs: d.value };
  addError(f, n.id, 'duration', d.message);
  return {};
};

const commandFields = (n: DotNode, f: Findings): Partial<StepNode> => {
  const command = n.attrs.command;
  if (command === undefined || command.trim() === '') {
    addError(f, n.id, 'command', 'a command node needs a command');
    return {};
  }
  if (/\{\{[^}]*\}\}/.test(command.replaceAll(PREVIEW_URL, ''))) addWarning(f, n.id, 'command', `placeholders are not expanded in commands (but ${PREVIEW_URL}); {{...}} is run as written`);
  return { command };
};

export const parseNode = (n: DotNode, base: PromptFileBase | undefined, f: Findings): NodeParse => {
  const files = new Map<string, { text: string; path: string }>();
  const kind = readKind(n, f);
  if (!kind) return { node: undefined, files };
  for (const key of Object.keys(n.attrs)) {
    const w = nodeAttrWarning(kind, key);
    if (w) addWarning(f, n.id, key, w, n.lines[key]);
  }
  // An agent needs a prompt; a gate may have one, for the person who decides there.
  const prompt = kind === 'agent' || (kind === 'gate' && n.attrs.prompt !== undefined) ? readPrompt(n, base, files, f) : undefined;
  const extra = kind === 'agent' ? readStepChoices(n.attrs, n.id, f) : kind === 'wait' ? waitFields(n, f) : kind === 'command' ? commandFields(n, f) : {};
  if (kind === 'deliver') for (const p of deliverWatchProblems(n.attrs)) addError(f, n.id, p.key, p.message);
  const label = n.attrs.label;
  const node: StepNode = { id: n.id, kind, ...(label ? { label } : {}), ...(prompt !== undefined ? { prompt } : {}), ...extra, attrs: { ...n.attrs } };
  return { node, files };
};
