import type Router from '@koa/router';
import type { Context } from 'koa';
import { isLeft, right } from 'fp-ts/lib/Either.js';
import type { Service } from '../../root/service.js';
import { readJson } from '../../inputs/body.js';
import { ControlInput } from '../../inputs/control.js';
import { ReviseGoalInput } from '../../inputs/goal.js';
import { MessageInput } from '../../inputs/message.js';
import { FollowUpInput } from '../../inputs/follow-up.js';
import { ForkInput } from '../../inputs/fork.js';
import { AnswerInput } from '../../inputs/answer.js';
import { ReviewInput } from '../../inputs/review.js';
import { ArchiveInput } from '../../inputs/archive.js';
import { ResolveInput } from '../../inputs/resolve.js';
import { SecureInput } from '../../inputs/secure.js';
import { MergeInput, PullRequestCheckInput, PullRequestInput, UpdateFromBaseInput } from '../../inputs/ship.js';
import { KeepInput } from '../../inputs/keep.js';
import { MoveInput } from '../../inputs/move.js';
import { decodeInput, refuseUnknownFields } from '../decode.js';
import { intParam, personFrom, reply } from '../reply.js';
import { replyShared } from '../shared-json.js';

// Steering a run over HTTP: the same decoders (lib/inputs/) and facade calls the MCP tools use.
export const runControlRoutes = (router: Router, service: Service): void => {
  const id = (ctx: Context) => ctx.params['runId']!;
  router.post('/api/runs/:runId/control', async (ctx: Context) => {
    const b = decodeInput(ControlInput, await readJson(ctx));
    reply(ctx, service.control(id(ctx), b, personFrom(ctx)));
  });
  // "Move to…": where the run's next agent steps run (docs/workers.md)
  router.post('/api/runs/:runId/move', async (ctx: Context) => {
    const b = decodeInput(MoveInput, await readJson(ctx));
    reply(ctx, service.moveRun(id(ctx), b.to, personFrom(ctx)));
  });
  router.post('/api/runs/:runId/goal', async (ctx: Context) => {
    const b = decodeInput(ReviseGoalInput, await readJson(ctx));
    reply(ctx, service.reviseGoal(id(ctx), b.goal, b.reason, personFrom(ctx)));
  });
  router.post('/api/runs/:runId/messages', async (ctx: Context) => {
    const b = decodeInput(MessageInput, await readJson(ctx));
    reply(ctx, service.message(id(ctx), b.text, b.delivery, b.reason, personFrom(ctx)));
  });
  router.post('/api/runs/:runId/reviews', async (ctx: Context) => {
    const b = decodeInput(ReviewInput, await readJson(ctx));
    reply(ctx, await service.submitReview(id(ctx), b, personFrom(ctx)));
  });
  router.get('/api/runs/:runId/reviews', async (ctx: Context) => reply(ctx, await service.readReviews(id(ctx))));
  router.post('/api/runs/:runId/follow-ups', async (ctx: Context) => {
    const b = decodeInput(FollowUpInput, await readJson(ctx));
    const made = service.followUp(id(ctx), { text: b.text, ...(b.reason !== undefined ? { reason: b.reason } : {}) }, personFrom(ctx));
    reply(ctx, isLeft(made) ? made : right({ runId: made.right.runId, url: service.runUrl(made.right.runId) }));
  });
  router.post('/api/runs/:runId/forks', async (ctx: Context) => {
    const made = service.fork(id(ctx), decodeInput(ForkInput, await readJson(ctx)), personFrom(ctx));
    reply(ctx, isLeft(made) ? made : right({ runId: made.right.runId, url: service.runUrl(made.right.runId) }));
  });
  router.post('/api/runs/:runId/answers', async (ctx: Context) => {
    const b = decodeInput(AnswerInput, await readJson(ctx));
    reply(ctx, service.answer(id(ctx), b.question, b.answer, b.reason, personFrom(ctx)));
  });
  router.post('/api/runs/:runId/archive', async (ctx: Context) => {
    const b = decodeInput(ArchiveInput, await readJson(ctx));
    reply(ctx, await service.archive(id(ctx), b.state, b.reason, personFrom(ctx)));
  });
  // what the POST would keep of the run's worktrees: the app says it before a person confirms
  router.get('/api/runs/:runId/archive', async (ctx: Context) => reply(ctx, await service.archiveKeeping(id(ctx))));
  router.get('/api/runs/:runId/keep', async (ctx: Context) => reply(ctx, await service.keepKeeping(id(ctx))));
  router.post('/api/runs/:runId/keep', async (ctx: Context) => {
    const b = decodeInput(KeepInput, await readJson(ctx));
    reply(ctx, await service.keepAttempt(id(ctx), b.abortOthers ?? false, b.reason, personFrom(ctx)));
  });
  router.post('/api/runs/:runId/resolve', async (ctx: Context) => {
    const b = decodeInput(ResolveInput, await readJson(ctx));
    reply(ctx, service.resolve(id(ctx), b.reason, personFrom(ctx)));
  });
  router.post('/api/runs/:runId/export', async (ctx: Context) => {
    refuseUnknownFields(await readJson(ctx), []);
    reply(ctx, await service.exportRun(id(ctx)));
  });
  router.post('/api/runs/:runId/secure', async (ctx: Context) => {
    const b = decodeInput(SecureInput, await readJson(ctx));
    reply(ctx, await service.secureRunWork(id(ctx), b.reason, personFrom(ctx)));
  });
  // shipping (docs/shipping.md)
  router.post('/api/runs/:runId/pull-request', async (ctx: Context) => {
    const b = decodeInput(PullRequestInput, await readJson(ctx));
    reply(ctx, await service.openPullRequest(id(ctx), b, personFrom(ctx)));
  });
  router.get('/api/runs/:runId/pull-request-draft', (ctx: Context) => reply(ctx, service.pullRequestDraft(id(ctx))));
  router.post('/api/runs/:runId/merge', async (ctx: Context) => {
    const b = decodeInput(MergeInput, await readJson(ctx));
    reply(ctx, await service.mergeRun(id(ctx), b.method, personFrom(ctx)));
  });
  router.post('/api/runs/:runId/update-from-base', async (ctx: Context) => {
    const b = decodeInput(UpdateFromBaseInput, await readJson(ctx));
    reply(ctx, await service.updateFromBase(id(ctx), b, personFrom(ctx)));
  });
  router.get('/api/runs/:runId/worktree', async (ctx: Context) => reply(ctx, await service.readRunWorktree(id(ctx))));
  router.get('/api/runs/:runId/pull-request', async (ctx: Context) => {
    const number = intParam(ctx, 'number', 1, 1e12, undefined);
    reply(ctx, await service.readPullRequest({ run: id(ctx), ...(number !== undefined ? { number } : {}) }));
  });
  router.post('/api/runs/:runId/pull-request/check', async (ctx: Context) => {
    decodeInput(PullRequestCheckInput, await readJson(ctx));
    reply(ctx, await service.checkPullRequestNow(id(ctx)));
  });
  router.get('/api/runs/:runId/wait', async (ctx: Context) => {
    const seconds = intParam(ctx, 'timeout', 0, 300, 60)!;
    const abort = new AbortController();
    // A client gone before the answer ends its wait. Once answered the listener goes: abort()
    // builds a DOMException with a stack, which 1,000 sockets closing after one wake would pay for.
    const gone = () => abort.abort();
    ctx.req.once('close', gone);
    const r = await service.waitForRun(id(ctx), seconds * 1000, abort.signal);
    ctx.req.off('close', gone);
    // Every long-poll one append wakes holds the same answer: encoded once, the same bytes to each.
    if (isLeft(r)) reply(ctx, r);
    else replyShared(ctx, r.right);
  });
};
