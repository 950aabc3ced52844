import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Service } from '../../service/service.js';
import { intParam, reply } from '../reply.js';

// Thread, history and log, as pages: `before` (cursor of the previous page), `pageSize` 1..200.
export const runPageRoutes = (router: Router, service: Service): void => {
  const id = (ctx: Context) => ctx.params['runId']!;
  router.get('/api/runs/:runId/thread', (ctx: Context) =>
    reply(ctx, service.readThread(id(ctx), intParam(ctx, 'before', 1, Number.MAX_SAFE_INTEGER, undefined), intParam(ctx, 'pageSize', 1, 200, 10)!)));
  router.get('/api/runs/:runId/history', (ctx: Context) =>
    reply(ctx, service.readHistory(id(ctx), intParam(ctx, 'before', 1, Number.MAX_SAFE_INTEGER, undefined), intParam(ctx, 'pageSize', 1, 200, 25)!)));
  router.get('/api/runs/:runId/log', (ctx: Context) =>
    reply(ctx, service.readLog(id(ctx), intParam(ctx, 'before', 1, Number.MAX_SAFE_INTEGER, undefined), intParam(ctx, 'pageSize', 1, 200, 50)!)));
};
