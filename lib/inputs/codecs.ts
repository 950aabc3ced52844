import { usdBudget } from './kinds.js';
import { PreviewCommandInput } from './preview.js';
import * as t from 'io-ts';
import { Harness } from './common.js';

// Request bodies of the HTTP API. Refinements carry their own message, which becomes the detail.

const refine = <A>(base: t.Type<A>, ok: (a: A) => boolean, message: string, name: string) =>
  new t.Type<A, A, unknown>(name, base.is, (u, c) => {
    const r = base.validate(u, c);
    if (r._tag === 'Left') return r;
    return ok(r.right) ? r : t.failure(u, c, message);
  }, t.identity);

export const NonBlank = refine(t.string, (s) => s.trim() !== '', 'must not be blank', 'NonBlank');

// The bodies of actions on runs are not here: each action has one decoder, shared with MCP, in lib/inputs/.

export const START_NEEDS_QUERY = ['project', 'workflow', 'harness'] as const;
export const StartNeedsQuery = t.intersection([t.type({ project: NonBlank }), t.partial({ workflow: NonBlank, harness: Harness })]);

const Folder = t.intersection([t.type({ path: NonBlank }), t.partial({ name: NonBlank })]);
export const NewProjectBody = t.type({ name: NonBlank, folders: t.array(Folder) });
export const FolderBody = Folder;
// a field beyond `method` is refused rather than dropped: it may be a setting the person thinks they set
const AutoMergeOn = refine(t.type({ method: t.keyof({ squash: null, merge: null, rebase: null }) }), (o) => Object.keys(o).length === 1, 'autoMerge takes only method', 'AutoMergeOn');
const AutoMerge = t.union([t.null, AutoMergeOn], 'null or {method: squash|merge|rebase}');
const SandboxMode = t.keyof({ required: null, preferred: null, off: null }, 'required, preferred or off');
export const ProjectPatchBody = t.partial({
  name: NonBlank, defaultWorkflow: NonBlank, primaryFolder: NonBlank, autoMerge: AutoMerge, dailyBudgetUsd: t.union([usdBudget(), t.null]),
  sandbox: SandboxMode, egressAllow: t.array(t.string), egressAllowFull: t.array(t.string),
  preview: t.union([PreviewCommandInput, t.null]),
  runOn: NonBlank,
});
