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
  // what the project's runs may spend per local day (null: no budget); new runs queue past it
  DailyBudgetSet: t.type({ projectId: t.string, dailyBudgetUsd: t.union([t.number, t.null]) }),
} as const;

type Codecs = typeof PROJECT_EVENT_CODECS;
export type ProjectEvent = { [K in keyof Codecs]: { readonly type: K; readonly data: t.TypeOf<Codecs[K]> } }[keyof Codecs];
