import { isSupervisorOnlyTool, hasTool, toolRefusal } from '../../commands/supervisor-only.js';
import { decideRead, listScope, type ReadTarget, type Reader } from '../../commands/supervisor-reading.js';
import { isActingTool } from '../../commands/supervisor-tiers.js';
import { refusalText } from '../../commands/refusal.js';
import { findProject } from '../../projections/projects.js';
import type { Service } from '../root/service.js';
import type { Settings } from '../../domain/settings.js';
import { actAs } from './supervisor-acting.js';
import { supervisorDesk } from '../supervisors/desk.js';
import { errorAnswer, okAnswer, type ToolAnswer } from './answer.js';
import { findTool, groupOffText, groupOn, TOOLS } from './registry.js';
import type { Tool, ToolContext } from './tool.js';
import { SUPERVISOR_TOOLS } from './tools/supervisor-only.js';
import { quoted } from '../../domain/quoted.js';

// A call to /mcp?supervisor=<key>: the supervisor's tool list and every call held to the spec's
// Supervisor scoping. Tool groups do not apply, except change_setting's. Reading tools are scoped
// by rules 4 and 5; acting tools go through lib/supervisors/acting.ts (rules 1-3, 6-10).

export interface SupervisorSession {
  readonly id: string;
  tools(settings: Settings): readonly Tool[];
  call(name: string, raw: unknown, ctx: ToolContext): Promise<ToolAnswer>;
}

/** reads of the run's own words and work, refused to the global supervisor on runs it does not own */
const FULL_READS = new Set(['read_run_thread', 'read_run_history', 'read_run_log', 'export_run', 'read_run_worktree', 'read_pull_request', 'read_pull_request_draft']);
const PROJECT_READS = new Set(['list_workflows', 'read_workflow', 'validate_workflow', 'read_pull_request']);

type Args = Record<string, unknown>;
const asArgs = (raw: unknown): Args => (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Args) : {});

const readTarget = (service: Service, tool: string, a: Args): ReadTarget | 'unknown' | null => {
  const core = service.core;
  if (typeof a['run'] === 'string') {
    const run = core.runs.get(a['run']);
    if (!run) return 'unknown';
    return { kind: 'run', id: run.runId, projectId: run.projectId, owner: core.supervisors.ownerOf(run), full: FULL_READS.has(tool) };
  }
  if (PROJECT_READS.has(tool) && typeof a['project'] === 'string') {
    const p = findProject(core.projects.current, a['project']);
    return p ? { kind: 'project', id: p.id } : 'unknown';
  }
  return null;
};

const scopedList = async (service: Service, reader: Reader, tool: Tool, a: Args, ctx: ToolContext): Promise<ToolAnswer> => {
  const own = listScope(reader);
  if (own === null) return tool.invoke(a, ctx);
  if (tool.name === 'list_projects') {
    const answer = await tool.invoke(a, ctx);
    const projects = (answer.structuredContent?.['projects'] as { id: string }[] | undefined) ?? [];
    return answer.isError ? answer : okAnswer({ projects: projects.filter((p) => p.id === own) });
  }
  const asked = typeof a['project'] === 'string' ? findProject(service.core.projects.current, a['project'])?.id : own;
  return asked === own ? tool.invoke({ ...a, project: own }, ctx) : okAnswer({ runs: [] });
};

const read = async (service: Service, reader: Reader, tool: Tool, a: Args, ctx: ToolContext): Promise<ToolAnswer> => {
  if (tool.name === 'list_runs' || tool.name === 'list_projects') return scopedList(service, reader, tool, a, ctx);
  // the sums are of every project's runs (their titles and costs): more than a project supervisor sees
  if (tool.name === 'read_usage' && reader.project !== null) return errorAnswer(`supervisor ${reader.id} sees only its own project (${reader.project}); read_usage sums the runs of every project`);
  const target = readTarget(service, tool.name, a);
  // an unknown run or project: the tool itself answers, with its usual words
  if (target === 'unknown' || target === null) return tool.invoke(a, ctx);
  const refused = decideRead(reader, target);
  return refused ? errorAnswer(refusalText(refused)) : tool.invoke(a, ctx);
};

export const supervisorSession = (service: Service, id: string): SupervisorSession => ({
  id,
  tools: (settings) => {
    const project = service.core.supervisors.get(id)?.project ?? null;
    const own = Object.entries(SUPERVISOR_TOOLS).filter(([name]) => isSupervisorOnlyTool(name) && hasTool(name, project)).map(([, t]) => t);
    return [...TOOLS.filter((t) => t.name !== 'change_setting' || groupOn(settings, 'settings')), ...own];
  },
  call: async (name, raw, base) => {
    const s = service.core.supervisors.get(id);
    if (!s) return errorAnswer(`supervisor ${id} no longer exists`);
    const ctx: ToolContext = { ...base, actor: { kind: 'supervisor', name: id }, supervisor: supervisorDesk(service, id) };
    const a = asArgs(raw);
    // arguments that are not an object reach the tool as they came, for its own argument error
    if (isSupervisorOnlyTool(name)) return hasTool(name, s.project) ? SUPERVISOR_TOOLS[name].invoke(raw, ctx) : errorAnswer(refusalText(toolRefusal(name, id)));
    const tool = findTool(name);
    if (!tool) return errorAnswer(`unknown tool: ${quoted(name)}`);
    if (tool.name === 'change_setting') {
      if (!groupOn(ctx.settings.read(), 'settings')) return errorAnswer(groupOffText('settings'));
      const held = service.core.supervisors.heldBecause(id);
      return held ? errorAnswer(`actions are refused now: ${held}`) : tool.invoke(raw, ctx);
    }
    // bad arguments get the tool's own answer before any rule is asked
    if (tool.args.decode(raw === undefined ? {} : raw)._tag === 'Left') return tool.invoke(raw, ctx);
    if (isActingTool(tool.name)) return actAs(service, id, tool as Tool & { name: typeof tool.name }, a, ctx);
    return read(service, { id, project: s.project }, tool, a, ctx);
  },
});
