import * as t from 'io-ts';
import { HARNESSES, NODE_KINDS, ORIGINS, TOOL_ACCESS } from '../domain/workflow.js';
import { oneOf, withOptional } from './codec-util.js';

// A run stores the workflow it started with; reading it back from the journal decodes it here.
const StepNodeCodec = withOptional(
  { id: t.string, kind: oneOf(NODE_KINDS), attrs: t.record(t.string, t.string) },
  {
    label: t.string, prompt: t.string, persona: t.string, harness: oneOf(HARNESSES), model: t.string,
    tools: oneOf(TOOL_ACCESS), command: t.string, durationMs: t.number,
  },
);

const RouteCodec = withOptional({ from: t.string, to: t.string }, { condition: oneOf(['success', 'failure'] as const) });

// fallbackHarnesses is optional: workflows stored before it have none
export const WorkflowCodec = withOptional({
  name: t.string,
  origin: oneOf(ORIGINS),
  version: t.string,
  description: t.string,
  inputs: t.readonlyArray(t.string),
  defaults: t.record(t.string, t.string),
  stepDefaults: t.partial({ harness: oneOf(HARNESSES), model: t.string, persona: t.string, tools: oneOf(TOOL_ACCESS) }),
  nodes: t.readonlyArray(StepNodeCodec),
  routes: t.readonlyArray(RouteCodec),
  source: t.string,
}, { fallbackHarnesses: t.readonlyArray(oneOf(HARNESSES)) });
