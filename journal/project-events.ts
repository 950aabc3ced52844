import * as t from 'io-ts';

// Projects are one journal ('projects'): every project's creation and change, in order.
const Folder = t.type({ name: t.string, path: t.string });

export const PROJECT_EVENT_CODECS = {
  ProjectAdded: t.type({ projectId: t.string, name: t.string, folders: t.array(Folder) }),
  ProjectRenamed: t.type({ projectId: t.string, name: t.string }),
  FolderAdded: t.type({ projectId: t.string, folder: Folder }),
  FolderRemoved: t.type({ projectId: t.string, name: t.string }),
  DefaultWorkflowChosen: t.type({ projectId: t.string, workflow: t.string }),
  PrimaryFolderChosen: t.type({ projectId: t.string, name: t.string }),
  // auto-merge of the project's runs' pull requests (docs/shipping.md): null turns it off
  AutoMergeChosen: t.type({ projectId: t.string, autoMerge: t.union([t.null, t.type({ method: t.union([t.literal('squash'), t.literal('merge'), t.literal('rebase')]) })]) }),
  // what the project's runs may spend per local day (null: no budget); new runs queue past it
  DailyBudgetSet: t.type({ projectId: t.string, dailyBudgetUsd: t.union([t.number, t.null]) }),
  // the project's preview command (docs/preview.md): an argv, never a shell string; null removes it
  PreviewCommandSet: t.type({ projectId: t.string, preview: t.union([t.null, t.type({ argv: t.array(t.string), setup: t.union([t.array(t.string), t.null]), portEnv: t.string })]) }),
  // svc's sandbox for the project's runs (docs/sandbox.md)
  SandboxChosen: t.type({ projectId: t.string, sandbox: t.union([t.literal('required'), t.literal('preferred'), t.literal('off')]) }),
  // what the project's sandboxed steps may reach besides their model API; `full` steps add `full`
  EgressAllowlistSet: t.type({ projectId: t.string, allow: t.array(t.string), full: t.array(t.string) }),
  // where the project's agent steps run (docs/workers.md): 'here' (the hub itself) or a worker's id
  RunOnChosen: t.type({ projectId: t.string, runOn: t.string }),
} as const;

type Codecs = typeof PROJECT_EVENT_CODECS;
export type ProjectEvent = { [K in keyof Codecs]: { readonly type: K; readonly data: t.TypeOf<Codecs[K]> } }[keyof Codecs];
