import Koa from 'koa';
import Router from '@koa/router';
import { requestGuard } from '../auth/host-rules.js';
import type { AppCodes } from '../auth/app-codes.js';
import { windowSecret } from '../auth/window-secret.js';
import { mountMcp } from '../mcp/endpoint.js';
import { mountRunTools } from '../mcp/run-tools.js';
import { supervisorSession } from '../mcp/supervisor-session.js';
import { findProject, primaryFolderPath } from '../../projections/projects.js';
import type { Service } from '../root/service.js';
import { BodyError } from '../inputs/body.js';
import { settingsAccess } from './settings-access.js';
import { appSession } from './routes/app-session.js';
import { watchStreams, type StreamWatch } from './stream-watch.js';
import { eventRoutes } from './routes/events.js';
import { personaRoutes } from './routes/personas.js';
import { projectRoutes } from './routes/projects.js';
import { runControlRoutes } from './routes/run-controls.js';
import { runPageRoutes } from './routes/run-pages.js';
import { runPageReadRoutes } from './routes/run-page-reads.js';
import { runRoutes } from './routes/runs.js';
import { serviceRoutes } from './routes/service-routes.js';
import { skillRoutes } from './routes/skills.js';
import { supervisorRoutes } from './routes/supervisors.js';
import { triggerRoutes } from './routes/triggers.js';
import { usageRoutes } from './routes/usage.js';
import { workerRoutes } from './routes/workers.js';
import { workflowRoutes } from './routes/workflows.js';
import { previewRoutes } from './routes/previews.js';
import { previewProxy } from './preview-proxy.js';
import { jsonNotFound } from './not-found.js';
import { staticApp } from './static.js';
import { cappedDetail, quoted } from '../../domain/quoted.js';

// One port: the browser app, /api, /mcp, and each run's own tool server at /run-tools/:runId/mcp.

export interface AppOptions {
  readonly bind: string;
  /** set for a server a window owns: every /api request must carry it */
  readonly secret?: string;
  /** `svc app`: the one-time codes its window trades for the secret (POST /api/app/session) */
  readonly codes?: AppCodes;
  /** `svc app` with the default browser: told when the app's /api/events streams open and close */
  readonly streams?: StreamWatch;
  /** how often an idle push stream sends a keep-alive comment (default 15 s) */
  readonly keepAliveMs?: number;
}

// Bad input is a 4xx with a detail; anything unforeseen is logged and answered, never a crash.
const errors: Koa.Middleware = async (ctx, next) => {
  try {
    await next();
  } catch (err) {
    if (err instanceof BodyError) {
      ctx.status = err.status;
      ctx.body = { detail: cappedDetail(err.message) };
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
  ctx.body = { detail: `${quoted(ctx.method)} is not allowed on ${quoted(ctx.path)}; allowed: ${ctx.response.get('Allow') || 'none'}` };
};

// A client that goes away mid-answer (a window closed while a file or a stream was being sent) is
// not a fault of ours: only other errors are worth a line in the server's output.
const GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);
const logUnlessGone = (err: NodeJS.ErrnoException): void => {
  if (err.code && GONE.has(err.code)) return;
  console.error(err);
};

const apiOnly = (mw: Koa.Middleware): Koa.Middleware => (ctx, next) => (ctx.path.startsWith('/api/') || ctx.path === '/api' ? mw(ctx, next) : next());

export const createApp = (service: Service, opts: AppOptions): Koa => {
  const app = new Koa();
  app.proxy = false;
  app.on('error', logUnlessGone);
  const router = new Router();
  runRoutes(router, service);
  runControlRoutes(router, service);
  runPageRoutes(router, service);
  runPageReadRoutes(router, service);
  eventRoutes(router, service, opts.keepAliveMs ?? 15_000);
  projectRoutes(router, service);
  serviceRoutes(router, service);
  triggerRoutes(router, service);
  supervisorRoutes(router, service);
  usageRoutes(router, service);
  previewRoutes(router, service);
  workerRoutes(router, service);
  const resolveProject = (id: string) => { const p = findProject(service.core.projects.current, id); return p ? { primaryFolderPath: primaryFolderPath(p), defaultWorkflow: p.defaultWorkflow } : undefined; };
  workflowRoutes(router, { catalog: service.catalog, resolveProject });
  personaRoutes(router, { catalog: service.catalog, resolveProject });
  skillRoutes(router, { svcHome: service.core.home, now: () => service.core.now() });
  mountRunTools(router, service.core.runTools);
  mountMcp(router, {
    api: service, home: service.core.home,
    supervisor: (key) => {
      const sups = service.core.supervisors;
      const s = sups.featureOn() ? sups.byKey(key) : undefined;
      return s ? supervisorSession(service, s.id) : undefined;
    },
    settings: settingsAccess(service),
  });
  app.use(errors);
  app.use(requestGuard({ bind: opts.bind }));
  if (opts.secret && opts.codes) app.use(appSession(opts.secret, opts.codes));
  app.use(apiOnly(windowSecret(opts.secret)));
  app.use(previewProxy(service, opts.bind));
  if (opts.streams) app.use(watchStreams(opts.streams));
  app.use(methodRefusals);
  app.use(router.routes());
  app.use(router.allowedMethods());
  app.use(jsonNotFound);
  app.use(staticApp());
  return app;
};

