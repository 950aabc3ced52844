import { graphAttrWarning } from './attributes.js';
import { addError, addWarning, type Findings } from './diagnostics.js';
import { INPUT_NAME, parseDefaultItem, splitList, unescapeText } from './dot-values.js';
import { HARNESSES, TOOL_ACCESS, type GraphSettings, type HarnessName, type StepDefaults, type ToolAccess } from '../../domain/workflow.js';

// The graph-level attributes: description, declared inputs with their defaults, and the defaults
// every agent step starts from (harness, model, persona, tools).

export const isHarness = (s: string): s is HarnessName => (HARNESSES as readonly string[]).includes(s);
export const isToolAccess = (s: string): s is ToolAccess => (TOOL_ACCESS as readonly string[]).includes(s);

export const harnessMessage = (s: string): string => `unknown harness ${s} (use one of ${HARNESSES.join(', ')})`;
export const toolsMessage = (s: string): string => `unknown tools value ${s} (use one of ${TOOL_ACCESS.join(', ')})`;

const readInputs = (text: string | undefined, f: Findings): string[] => {
  const names: string[] = [];
  for (const name of splitList(text ?? '')) {
    if (!INPUT_NAME.test(name)) addError(f, null, 'inputs', `${name} is not an input name (letters, digits and _, not starting with a digit)`);
    else if (names.includes(name)) addWarning(f, null, 'inputs', `input ${name} is declared twice`);
    else names.push(name);
  }
  return names;
};

const readDefaults = (text: string | undefined, inputs: readonly string[], f: Findings): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const item of splitList(text ?? '')) {
    const parsed = parseDefaultItem(item);
    if (!parsed.ok) addError(f, null, 'defaults', parsed.message);
    else if (!inputs.includes(parsed.value[0])) addError(f, null, 'defaults', `default given for ${parsed.value[0]}, which is not a declared input`);
    else out[parsed.value[0]] = parsed.value[1];
  }
  return out;
};

/** harness, model, persona, tools: the step choices a graph (node null) or an agent node may make */
export const readStepChoices = (attrs: Readonly<Record<string, string>>, node: string | null, f: Findings): StepDefaults => {
  const { harness, model, persona, tools } = attrs;
  if (harness !== undefined && !isHarness(harness)) addError(f, node, 'harness', harnessMessage(harness));
  if (tools !== undefined && !isToolAccess(tools)) addError(f, node, 'tools', toolsMessage(tools));
  return {
    ...(harness !== undefined && isHarness(harness) ? { harness } : {}),
    ...(model ? { model } : {}),
    ...(persona ? { persona } : {}),
    ...(tools !== undefined && isToolAccess(tools) ? { tools } : {}),
  };
};

// fallbackHarnesses="codex,opencode": where a step's harness is out of quota, the run switches to
// the first of these that is ready and not limited, instead of waiting (docs/usage.md)
const readFallbacks = (text: string | undefined, f: Findings): { fallbackHarnesses?: readonly HarnessName[] } => {
  if (text === undefined) return {};
  const names = splitList(text);
  for (const n of names) if (!isHarness(n)) addError(f, null, 'fallbackHarnesses', harnessMessage(n));
  const valid = [...new Set(names.filter(isHarness))];
  return valid.length ? { fallbackHarnesses: valid } : {};
};

export const readGraphSettings = (attrs: Readonly<Record<string, string>>, lines: Readonly<Record<string, number>>, f: Findings): GraphSettings => {
  for (const key of Object.keys(attrs)) {
    const w = graphAttrWarning(key);
    if (w) addWarning(f, null, key, w, lines[key]);
  }
  const inputs = readInputs(attrs.inputs, f);
  return {
    description: unescapeText(attrs.description ?? '').trim(),
    inputs,
    defaults: readDefaults(attrs.defaults, inputs, f),
    stepDefaults: readStepChoices(attrs, null, f),
    ...readFallbacks(attrs.fallbackHarnesses, f),
    ...readBudget(attrs.budgetUsd, f),
  };
};

const readBudget = (text: string | undefined, f: Findings): { budgetUsd?: number } => {
  if (text === undefined) return {};
  const n = Number(text);
  if (text.trim() !== '' && Number.isFinite(n) && n > 0 && n <= 1_000_000) return { budgetUsd: n };
  addError(f, null, 'budgetUsd', `budgetUsd ${text} is not a number of US dollars above 0 (at most 1000000)`);
  return {};
};
