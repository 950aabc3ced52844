import type Router from '@koa/router';
import type { Context } from 'koa';
import { createReadStream } from 'node:fs';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Service } from '../../root/service.js';
import { readRunDiffOf, readRunWorkflow } from '../../read-models/run-page-reads.js';
import { reply } from '../reply.js';
import { decodeInput } from '../decode.js';
import { CompareQuery } from '../../inputs/compare.js';

// What the app's run page reads besides the run's detail: the run's own workflow (to draw it and
// to offer Jump's targets), its changes as diff text, and its export as a download.
export const runPageReadRoutes = (router: Router, service: Service): void => {
  const id = (ctx: Context) => ctx.params['runId']!;
  router.get('/api/runs/:runId/workflow', (ctx: Context) => reply(ctx, readRunWorkflow(service.core, id(ctx))));
  // two runs of one project side by side: the Compare page
  router.get('/api/compare', async (ctx: Context) => {
    const q = decodeInput(CompareQuery, { ...ctx.query });
    reply(ctx, await service.compare(q.a, q.b));
  });
  router.get('/api/runs/:runId/diff', async (ctx: Context) => reply(ctx, await readRunDiffOf(service.core, id(ctx))));
  // POST /export writes the file and names it; GET writes it the same way and sends it, for a
  // browser to save (the app fetches it with its Bearer header and hands the bytes to a download).
  router.get('/api/runs/:runId/export', async (ctx: Context) => {
    const r = await service.exportRun(id(ctx));
    if (isLeft(r)) return reply(ctx, r);
    ctx.status = 200;
    ctx.type = 'application/x-ndjson';
    ctx.set('content-disposition', `attachment; filename="${id(ctx).replace(/[^\w.-]/g, '_')}.jsonl"`);
    ctx.length = r.right.size;
    ctx.body = createReadStream(r.right.path);
  });
};
