import * as t from 'io-ts';
import { left } from 'fp-ts/lib/Either.js';
import { forbidden } from '../../../commands/refusal.js';
import type { SupervisorOnlyTool } from '../../../commands/supervisor-only.js';
import { defineTool, type Tool, type ToolContext } from '../tool.js';
import { args } from '../../inputs/object.js';
import { nonBlank } from '../../inputs/kinds.js';
import { RunId, runNotes } from '../args/common.js';

// The four tools only supervisors have (spec, Supervisor-only tools). Which supervisor sees which
// is commands/supervisor-only.ts; what they do is the calling supervisor's desk.

const desk = (ctx: ToolContext) => ctx.supervisor;
const notASupervisor = left(forbidden('only a supervisor (/mcp?supervisor=<key>) has this tool'));

export const keepSupervisorNotes: Tool = defineTool({
  name: 'keep_supervisor_notes',
  group: 'messaging',
  description: 'Replace your notes (at most 20,000 characters). They are shown to you at the start of each turn.',
  args: args({ text: t.string }),
  notes: { text: 'The whole notes; they replace the previous ones.' },
  call: (a, ctx) => desk(ctx)?.keepNotes(a.text) ?? notASupervisor,
});

export const handUp: Tool = defineTool({
  name: 'hand_up',
  group: 'messaging',
  description: "Send a message to the global supervisor's chat (project supervisors only).",
  args: args({ text: nonBlank(20_000) }),
  notes: { text: 'The message.' },
  call: (a, ctx) => desk(ctx)?.handUp(a.text) ?? notASupervisor,
});

export const handOverRun: Tool = defineTool({
  name: 'hand_over_run',
  group: 'controlling',
  description: 'Hand a run you own over to the global supervisor, which owns it afterwards (project supervisors only). Recorded on the run.',
  args: args({ run: RunId }, { reason: t.string }),
  notes: { ...runNotes, reason: 'Why you hand it over (required).' },
  call: (a, ctx) => desk(ctx)?.handOver(a.run, a.reason) ?? notASupervisor,
});

export const readSupervisorActivity: Tool = defineTool({
  name: 'read_supervisor_activity',
  group: 'reading',
  description: "Up to the 50 most recent short lines about project supervisors' actions, oldest first (the global supervisor only).",
  args: args({}),
  call: (_a, ctx) => desk(ctx)?.activity() ?? notASupervisor,
});

export const SUPERVISOR_TOOLS: Readonly<Record<SupervisorOnlyTool, Tool>> = {
  keep_supervisor_notes: keepSupervisorNotes,
  hand_up: handUp,
  hand_over_run: handOverRun,
  read_supervisor_activity: readSupervisorActivity,
};
