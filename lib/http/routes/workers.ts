import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Service } from '../../root/service.js';
import { NewWorkerTokenBody, workerIdProblem } from '../../inputs/workers.js';
import { BodyError, readJson } from '../../inputs/body.js';
import { decodeOr400, refuseUnknownFields, refuseUnknownQuery } from '../decode.js';
import { reply } from '../reply.js';

// The machines that run steps for this server (docs/workers.md): list them, make a join token
// (shown in this answer only), revoke one.

const workerId = (ctx: Context): string => {
  const id = String(ctx.params['workerId'] ?? '');
  const problem = workerIdProblem(id);
  if (problem) throw new BodyError(400, problem);
  return id;
};

export const workerRoutes = (router: Router, service: Service): void => {
  router.get('/api/workers', async (ctx: Context) => {
    refuseUnknownQuery(ctx.query, []);
    ctx.body = await service.listWorkers();
  });
  router.post('/api/workers/tokens', async (ctx: Context) => {
    const raw = await readJson(ctx);
    refuseUnknownFields(raw, ['name']);
    const b = decodeOr400(NewWorkerTokenBody, raw);
    reply(ctx, await service.workers.createToken(b.name));
  });
  router.post('/api/workers/:workerId/revoke', async (ctx: Context) => {
    const id = workerId(ctx);
    reply(ctx, await service.workers.revoke(id));
  });
};
