import * as t from 'io-ts';
import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { invalid, type Outcome } from '../../commands/refusal.js';
import type { ActingTool } from '../../commands/supervisor-tiers.js';
import {
  AnswerQuestionArgs, ArchiveRunArgs, CheckPullRequestNowArgs, ControlRunArgs, KeepAttemptArgs, MergeRunArgs, MessageRunArgs, OpenPullRequestArgs, ResolveRunArgs,
  ReviseGoalArgs, SecureRunWorkArgs, StartRunArgs, SubmitReviewArgs, UpdateRunFromBaseArgs,
} from '../inputs/acting-args.js';
import { describeErrors } from '../inputs/describe.js';
import type { Actor } from '../../domain/runs.js';
import type { SupervisorService } from './service-port.js';

// An approved card's call, issued as the command it names: the arguments the card recorded are
// decoded with the tool's own codec (they come back from the chat journal, a read boundary) and
// become one call of the facade, whose Outcome says what came of it. No tool is invoked again and
// no answer text is parsed.

export type Args = Readonly<Record<string, unknown>>;

/** what came of the command: moved on (`stale`: a control named a position the run had left), and a line for the chat */
export interface Issued {
  readonly stale: boolean;
  readonly summary: string;
}

type Result = Outcome<Issued> | Promise<Outcome<Issued>>;

const decoded = <A>(tool: ActingTool, codec: t.Type<A, A, unknown>, raw: Args, issue: (a: A) => Result): Result => {
  const a = codec.decode(raw);
  return isLeft(a) ? left(invalid(`the card's arguments for ${tool} no longer decode: ${describeErrors(a.left)}`)) : issue(a.right);
};

const done = <T>(o: Outcome<T>): Outcome<Issued> => (isLeft(o) ? o : right({ stale: false, summary: 'done' }));

const control = (service: SupervisorService, a: t.TypeOf<typeof ControlRunArgs>, by: Actor): Outcome<Issued> => {
  const { run, ...input } = a;
  const r = service.control(run, input, by);
  return isLeft(r) ? r : right({ stale: r.right.outcome === 'Stale', summary: r.right.outcome });
};

const started = (r: Outcome<{ runId: string; attempts?: readonly { runId: string }[] }>): Outcome<Issued> =>
  isLeft(r) ? r : right({ stale: false, summary: r.right.attempts ? `started runs ${r.right.attempts.map((x) => x.runId).join(', ')} (attempts)` : `started run ${r.right.runId}` });

export const issueAs = async (service: SupervisorService, id: string, tool: ActingTool, args: Args): Promise<Outcome<Issued>> => {
  const by: Actor = { kind: 'supervisor', name: id };
  switch (tool) {
    case 'start_run': return decoded(tool, StartRunArgs, args, (a) => started(service.startRun(a, by)));
    case 'control_run': return decoded(tool, ControlRunArgs, args, (a) => control(service, a, by));
    case 'message_run': return decoded(tool, MessageRunArgs, args, (a) => done(service.message(a.run, a.text, a.delivery, a.reason, by)));
    case 'answer_question': return decoded(tool, AnswerQuestionArgs, args, (a) => done(service.answer(a.run, a.question, a.answer, a.reason, by)));
    case 'submit_review': return decoded(tool, SubmitReviewArgs, args, async ({ run, ...review }) => done(await service.submitReview(run, review, by)));
    case 'revise_goal': return decoded(tool, ReviseGoalArgs, args, (a) => done(service.reviseGoal(a.run, a.goal, a.reason, by)));
    case 'secure_run_work': return decoded(tool, SecureRunWorkArgs, args, async (a) => done(await service.secureRunWork(a.run, a.reason, by)));
    case 'open_pull_request': return decoded(tool, OpenPullRequestArgs, args, async ({ run, ...input }) => done(await service.openPullRequest(run, input, by)));
    case 'archive_run': return decoded(tool, ArchiveRunArgs, args, async (a) => done(await service.archive(a.run, a.state, a.reason, by)));
    case 'resolve_run': return decoded(tool, ResolveRunArgs, args, (a) => done(service.resolve(a.run, a.reason, by)));
    case 'keep_attempt': return decoded(tool, KeepAttemptArgs, args, async (a) => done(await service.keepAttempt(a.run, a.abortOthers ?? false, a.reason, by)));
    case 'merge_run': return decoded(tool, MergeRunArgs, args, async (a) => done(await service.mergeRun(a.run, a.method, by)));
    case 'update_run_from_base': return decoded(tool, UpdateRunFromBaseArgs, args, async ({ run, ...input }) => done(await service.updateFromBase(run, input, by)));
    case 'check_pull_request_now': return decoded(tool, CheckPullRequestNowArgs, args, async (a) => done(await service.checkPullRequestNow(a.run)));
  }
};
