import type Router from '@koa/router';
import type { Context } from 'koa';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Service } from '../../service/service.js';
import { readJson } from '../body.js';
import { AnswerBody, ArchiveBody, ControlBody, GoalBody, MessageBody, ReasonBody } from '../codecs.js';
import { decodeOr400 } from '../decode.js';
import { intParam, personFrom, reply } from '../reply.js';
import { replyShared } from '../shared-json.js';

// Steering a run over HTTP: the same facade calls the MCP tools make.
export const runControlRoutes = (router: Router, service: Service): void => {
  const id = (ctx: Context) => ctx.params['runId']!;
  router.post('/api/runs/:runId/control', async (ctx: Context) => {
    const b = decodeOr400(ControlBody, await readJson(ctx));
    reply(ctx, service.control(id(ctx), b, personFrom(ctx)));
  });
  router.post('/api/runs/:runId/goal', async (ctx: Context) => {
    const b = decodeOr400(GoalBody, await readJson(ctx));
    reply(ctx, service.reviseGoal(id(ctx), b.goal, b.reason, personFrom(ctx)));
  });
  router.post('/api/runs/:runId/messages', async (ctx: Context) => {
    const b = decodeOr400(MessageBody, await readJson(ctx));
    reply(ctx, service.message(id(ctx), b.text, b.delivery, b.reason, personFrom(ctx)));
  });
  router.post('/api/runs/:runId/answers', async (ctx: Context) => {
    const b = decodeOr400(AnswerBody, await readJson(ctx));
    reply(ctx, service.answer(id(ctx), b.question, b.answer, b.reason, personFrom(ctx)));
  });
  router.post('/api/runs/:runId/archive', async (ctx: Context) => {
    const b = decodeOr400(ArchiveBody, await readJson(ctx));
    reply(ctx, service.archive(id(ctx), b.state, b.reason, personFrom(ctx)));
  });
  router.post('/api/runs/:runId/resolve', async (ctx: Context) => {
    const b = decodeOr400(ReasonBody, await readJson(ctx));
    reply(ctx, service.resolve(id(ctx), b.reason, personFrom(ctx)));
  });
  router.post('/api/runs/:runId/export', async (ctx: Context) => reply(ctx, await service.exportRun(id(ctx))));
  router.post('/api/runs/:runId/secure', async (ctx: Context) => {
    const b = decodeOr400(ReasonBody, await readJson(ctx));
    reply(ctx, await service.secureRunWork(id(ctx), b.reason, personFrom(ctx)));
  });
  router.get('/api/runs/:runId/worktree', async (ctx: Context) => reply(ctx, await service.readRunWorktree(id(ctx))));
  router.get('/api/runs/:runId/pull-request', async (ctx: Context) => {
    const number = intParam(ctx, 'number', 1, 1e12, undefined);
    reply(ctx, await service.readPullRequest({ run: id(ctx), ...(number !== undefined ? { number } : {}) }));
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
