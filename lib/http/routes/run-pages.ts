import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Service } from '../../root/service.js';
import { BodyError } from '../../inputs/body.js';
import { intParam, reply } from '../reply.js';

/** an activity row's id from the path: 1, 2, … */
const rowParam = (ctx: Context): number => {
  const raw = ctx.params['rowId'] ?? '';
  if (!/^[1-9]\d{0,14}$/.test(raw)) throw new BodyError(400, `activity row ${JSON.stringify(raw.slice(0, 40))} is not a row id (1, 2, …)`);
  return Number(raw);
};

// Thread, history and log, as pages: `before` (cursor of the previous page), `pageSize` 1..200.
export const runPageRoutes = (router: Router, service: Service): void => {
  const id = (ctx: Context) => ctx.params['runId']!;
  router.get('/api/runs/:runId/thread', (ctx: Context) =>
    reply(ctx, service.readThread(id(ctx), intParam(ctx, 'before', 1, Number.MAX_SAFE_INTEGER, undefined), intParam(ctx, 'pageSize', 1, 200, 10)!)));
  router.get('/api/runs/:runId/history', (ctx: Context) =>
    reply(ctx, service.readHistory(id(ctx), intParam(ctx, 'before', 1, Number.MAX_SAFE_INTEGER, undefined), intParam(ctx, 'pageSize', 1, 200, 25)!)));
  router.get('/api/runs/:runId/log', async (ctx: Context) =>
    reply(ctx, await service.readLog(id(ctx), intParam(ctx, 'before', 1, Number.MAX_SAFE_INTEGER, undefined), intParam(ctx, 'pageSize', 1, 200, 50)!)));
  // the agent's tool calls (docs/events.md "Activity"): pages with outputs cut, one row with all of it
  router.get('/api/runs/:runId/activity', (ctx: Context) =>
    reply(ctx, service.readActivity(id(ctx), intParam(ctx, 'before', 1, Number.MAX_SAFE_INTEGER, undefined), intParam(ctx, 'pageSize', 1, 200, 50)!)));
  router.get('/api/runs/:runId/activity/:rowId', (ctx: Context) => reply(ctx, service.readActivityRow(id(ctx), rowParam(ctx))));
};
