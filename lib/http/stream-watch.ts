import type Koa from 'koa';

// A window opened by the default browser is no child of ours: `svc app` knows the window is gone
// only when the app's push stream (/api/events) is. This counts the open streams that got past
// the secret check and reports each change.

export interface StreamWatch {
  opened(): void;
  closed(): void;
}

export const EVENTS_PATH = '/api/events';

export const watchStreams = (watch: StreamWatch): Koa.Middleware => async (ctx, next) => {
  if (ctx.path !== EVENTS_PATH || ctx.method !== 'GET') return next();
  watch.opened();
  let open = true;
  // 'close' fires when the response ends or the client hangs up, whichever comes first.
  ctx.res.once('close', () => {
    if (open) { open = false; watch.closed(); }
  });
  await next();
};
