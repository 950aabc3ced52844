import Koa from 'koa';
import Router from '@koa/router';
import { right } from 'fp-ts/lib/Either.js';
import { requestGuard } from '../auth/host-rules.js';
import { windowSecret } from '../auth/window-secret.js';
import { mountMcp } from '../mcp/endpoint.js';
import { mountRunTools } from '../mcp/run-tools.js';
import { findProject, primaryFolderPath } from '../../projections/projects.js';
import type { Service } from '../service/service.js';
import { BodyError } from './body.js';
import { personaRoutes } from './routes/personas.js';
import { projectRoutes } from './routes/projects.js';
import { runControlRoutes } from './routes/run-controls.js';
import { runPageRoutes } from './routes/run-pages.js';
import { runRoutes } from './routes/runs.js';
import { serviceRoutes } from './routes/service-routes.js';
import { skillRoutes } from './routes/skills.js';
import { triggerRoutes } from './routes/triggers.js';
import { workflowRoutes } from './routes/workflows.js';
import { staticApp } from './static.js';

// One port: the browser app, /api, /mcp, and each run's own tool server at /run-tools/:runId/mcp.

export interface AppOptions {
  readonly bind: string;
  /** set for a server a window owns: every /api request must carry it */
  readonly secret?: string;
}

// Bad input is a 4xx with a detail; anything unforeseen is logged and answered, never a crash.
const errors: Koa.Middleware = async (ctx, next) => {
  try {
    await next();
  } catch (err) {
    if (err instanceof BodyError) {
      ctx.status = err.status;
      ctx.body = { detail: err.message };
      return;
    }
    console.error('request failed', ctx.method, ctx.path, err);
    ctx.status = 500;
    ctx.body = { detail: 'internal error; the service logged it' };
  }
};

// A method no route of the path takes is the client's mistake: 405 naming the allowed ones, with a
// detail like every refusal (the router alone answers 501 for a method it has never heard of).
const methodRefusals: Koa.Middleware = async (ctx, next) => {
  await next();
  if (!ctx.path.startsWith('/api/') || (ctx.status !== 405 && ctx.status !== 501)) return;
  ctx.status = 405;
  ctx.body = { detail: `${ctx.method} is not allowed on ${ctx.path}; allowed: ${ctx.response.get('Allow') || 'none'}` };
};

const apiOnly = (mw: Koa.Middleware): Koa.Middleware => (ctx, next) => (ctx.path.startsWith('/api/') || ctx.path === '/api' ? mw(ctx, next) : next());

export const createApp = (service: Service, opts: AppOptions): Koa => {
  const app = new Koa();
  app.proxy = false;
  const router = new Router();
  runRoutes(router, service);
  runControlRoutes(router, service);
  runPageRoutes(router, service);
  projectRoutes(router, service);
  serviceRoutes(router, service);
  triggerRoutes(router, service);
  const resolveProject = (id: string) => { const p = findProject(service.core.projects.current, id); return p ? { primaryFolderPath: primaryFolderPath(p), defaultWorkflow: p.defaultWorkflow } : undefined; };
  workflowRoutes(router, { catalog: service.catalog, resolveProject });
  personaRoutes(router, { catalog: service.catalog, resolveProject });
  skillRoutes(router, { svcHome: service.core.home, now: () => service.core.now() });
  mountRunTools(router, service.core.runTools);
  mountMcp(router, {
    api: service, home: service.core.home,
    settings: {
      read: () => service.settings(),
      change: (change, source) => right(service.changeSetting(change, source)),
    },
  });
  app.use(errors);
  app.use(requestGuard({ bind: opts.bind }));
  app.use(apiOnly(windowSecret(opts.secret)));
  app.use(methodRefusals);
  app.use(router.routes());
  app.use(router.allowedMethods());
  app.use(apiOnly(async (ctx) => {
    ctx.status = 404;
    ctx.body = { detail: `no route ${ctx.method} ${ctx.path}` };
  }));
  app.use(staticApp());
  return app;
};

