import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Service } from '../../root/service.js';
import { readJson } from '../../inputs/body.js';
import { PreviewStartInput, PreviewStopInput } from '../../inputs/preview.js';
import { decodeInput } from '../decode.js';
import { reply } from '../reply.js';

// A run's preview (docs/preview.md): POST starts it, DELETE stops it, GET reads its state; GET
// /api/previews lists those answering now (the board's links). The
// preview itself is reached at /preview/<runId>/ (lib/http/preview-proxy.ts).

export const previewRoutes = (router: Router, service: Service): void => {
  const id = (ctx: Context) => ctx.params['runId']!;
  router.get('/api/previews', (ctx: Context) => { ctx.body = { previews: service.runningPreviews() }; });
  router.get('/api/runs/:runId/preview', (ctx: Context) => reply(ctx, service.preview(id(ctx))));
  router.post('/api/runs/:runId/preview', async (ctx: Context) => {
    decodeInput(PreviewStartInput, await readJson(ctx));
    reply(ctx, await service.startPreview(id(ctx)));
  });
  router.delete('/api/runs/:runId/preview', async (ctx: Context) => {
    decodeInput(PreviewStopInput, await readJson(ctx));
    reply(ctx, await service.stopPreview(id(ctx)));
  });
};
