import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Outcome } from '../../commands/refusal.js';
import type { Actor } from '../../domain/runs.js';
import type { ServiceApi } from '../service/api.js';
import type { SupervisorDesk } from '../supervisors/desk.js';
import type { Settings, SettingChange, SettingSource, ToolGroup } from '../../domain/settings.js';
import { toJsonSchema, type JsonSchema } from './json-schema.js';
import { describeErrors } from '../inputs/describe.js';
import { answerOf, errorAnswer, type ToolAnswer } from './answer.js';
import { nulPath, nulRefusal } from '../inputs/nul.js';

// A tool is its name, group, description, argument codec and one call into the service. Tools
// have no logic of their own: they decode, call ServiceApi, and shape the answer.

/** what the endpoint needs besides the ServiceApi: settings read and change */
export interface SettingsAccess {
  read(): Settings;
  /** answers the spec's result, `{ committed }` (what was stored), or a refusal */
  change(change: SettingChange, source: SettingSource): Outcome<{ readonly committed: unknown }>;
}

export interface ToolContext {
  readonly api: ServiceApi;
  readonly settings: SettingsAccess;
  readonly actor: Actor;
  /** aborted when the HTTP request goes away (wait_for_run stops waiting) */
  readonly signal: AbortSignal;
  /** set on a supervisor's calls (/mcp?supervisor=<key>): its own tools reach its records here */
  readonly supervisor?: SupervisorDesk;
}

export type ToolResult = Outcome<unknown> | Promise<Outcome<unknown>>;

export interface ToolSpec<A> {
  readonly name: string;
  readonly group: ToolGroup;
  readonly description: string;
  readonly args: t.Type<A, A, unknown>;
  /** descriptions of the top-level arguments, shown in the schema */
  readonly notes?: Readonly<Record<string, string>>;
  readonly call: (args: A, ctx: ToolContext) => ToolResult;
}

/** a tool with its argument type erased: what the registry and the server hold */
export interface Tool {
  readonly name: string;
  readonly group: ToolGroup;
  readonly description: string;
  readonly args: t.Mixed;
  readonly inputSchema: JsonSchema;
  invoke(raw: unknown, ctx: ToolContext): Promise<ToolAnswer>;
}

export const defineTool = <A>(spec: ToolSpec<A>): Tool => ({
  name: spec.name,
  group: spec.group,
  description: spec.description,
  args: spec.args,
  inputSchema: toJsonSchema(spec.args, spec.notes),
  async invoke(raw, ctx) {
    // no arguments at all is an empty object; null, an array or a string is refused by the decoder
    const nul = nulPath(raw);
    if (nul !== null) return errorAnswer(`invalid arguments for ${spec.name}: ${nulRefusal(nul)}`);
    const decoded = spec.args.decode(raw === undefined ? {} : raw);
    if (isLeft(decoded)) return errorAnswer(`invalid arguments for ${spec.name}: ${describeErrors(decoded.left)}`);
    return answerOf(await spec.call(decoded.right, ctx));
  },
});
