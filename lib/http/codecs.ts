import * as t from 'io-ts';
import { oneOf } from '../../journal/codec-util.js';
import { ACTIONS } from '../service-api.js';
import { HARNESSES } from '../workflows/model.js';

// Request bodies of the HTTP API. Refinements carry their own message, which becomes the detail.

const refine = <A>(base: t.Type<A>, ok: (a: A) => boolean, message: string, name: string) =>
  new t.Type<A, A, unknown>(name, base.is, (u, c) => {
    const r = base.validate(u, c);
    if (r._tag === 'Left') return r;
    return ok(r.right) ? r : t.failure(u, c, message);
  }, t.identity);

export const NonBlank = refine(t.string, (s) => s.trim() !== '', 'must not be blank', 'NonBlank');
// Characters, not UTF-16 units: an emoji is one character of the 80.
export const Title = refine(t.string, (s) => [...s].length <= 80 && !/[\r\n]/.test(s) && s.trim() !== '', 'must be one line of 1 to 80 characters', 'Title');
const Harness = oneOf(HARNESSES);
const StringRecord = t.record(t.string, t.string);

export const START_RUN_FIELDS = ['project', 'goal', 'workflow', 'inputs', 'title', 'harness', 'model', 'start', 'ticket'] as const;
export const StartRunBody = t.partial({
  project: NonBlank, goal: NonBlank, workflow: NonBlank, inputs: StringRecord, title: Title,
  harness: Harness, model: NonBlank, start: t.boolean, ticket: NonBlank,
});

export const START_NEEDS_QUERY = ['project', 'workflow', 'harness'] as const;
export const StartNeedsQuery = t.intersection([t.type({ project: NonBlank }), t.partial({ workflow: NonBlank, harness: Harness })]);

export const ControlBody = t.intersection([
  t.type({ position: t.string, action: oneOf(ACTIONS) }),
  t.partial({ harness: Harness, model: t.string, node: NonBlank, reason: t.string }),
]);

export const GoalBody = t.intersection([t.type({ goal: NonBlank }), t.partial({ reason: t.string })]);
export const MessageBody = t.intersection([t.type({ text: NonBlank, delivery: oneOf(['Resume', 'Hold'] as const) }), t.partial({ reason: t.string })]);
export const AnswerBody = t.intersection([t.type({ question: NonBlank, answer: t.union([t.string, t.array(t.string)]) }), t.partial({ reason: t.string })]);
export const ArchiveBody = t.intersection([t.type({ state: oneOf(['Archived', 'Active'] as const) }), t.partial({ reason: t.string })]);
export const ReasonBody = t.partial({ reason: t.string });

const Folder = t.intersection([t.type({ path: NonBlank }), t.partial({ name: NonBlank })]);
export const NewProjectBody = t.type({ name: NonBlank, folders: t.array(Folder) });
export const FolderBody = Folder;
export const ProjectPatchBody = t.partial({ name: NonBlank, defaultWorkflow: NonBlank, primaryFolder: NonBlank });
