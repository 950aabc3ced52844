import type Router from '@koa/router';
import type { Context } from 'koa';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Service } from '../../service/service.js';
import type { StartRunInput } from '../../service-api.js';
import { readJson } from '../body.js';
import { START_RUN_FIELDS, StartRunBody } from '../codecs.js';
import { decodeOr400, refuseUnknownFields } from '../decode.js';
import { BodyError } from '../body.js';
import { personFrom, reply } from '../reply.js';

// GET /api/runs, GET /api/runs/:runId, POST /api/runs.

type StartBody = ReturnType<typeof StartRunBody.decode> extends infer R ? R extends { right: infer A } ? A : never : never;

// The legacy `ticket` becomes the goal when there is none, and is passed as an input named
// `ticket`; a workflow that does not declare that input refuses it like any undeclared input.
export const startInputFrom = (b: StartBody): StartRunInput => {
  if (b.project === undefined) throw new BodyError(400, 'project is required');
  const goal = b.goal ?? b.ticket;
  if (goal === undefined) throw new BodyError(400, 'goal is required unless ticket is given');
  if (b.model !== undefined && b.harness === undefined) throw new BodyError(400, 'model may be given only together with harness');
  const inputs = b.ticket === undefined ? b.inputs : { ...b.inputs, ticket: b.ticket };
  return {
    project: b.project, goal,
    ...(b.workflow !== undefined ? { workflow: b.workflow } : {}), ...(inputs ? { inputs } : {}),
    ...(b.title !== undefined ? { title: b.title } : {}), ...(b.harness !== undefined ? { harness: b.harness } : {}),
    ...(b.model !== undefined ? { model: b.model } : {}), ...(b.start !== undefined ? { start: b.start } : {}),
  };
};

export const runRoutes = (router: Router, service: Service): void => {
  router.get('/api/runs', (ctx: Context) => {
    ctx.type = 'application/json';
    ctx.body = service.httpRunsJson();
  });
  router.get('/api/runs/:runId', (ctx: Context) => reply(ctx, service.getHttpRun(ctx.params['runId']!)));
  router.get('/api/runs/:runId/detail', (ctx: Context) => reply(ctx, service.getRun(ctx.params['runId']!)));
  router.post('/api/runs', async (ctx: Context) => {
    const raw = await readJson(ctx);
    refuseUnknownFields(raw, START_RUN_FIELDS);
    const r = service.startRun(startInputFrom(decodeOr400(StartRunBody, raw)), personFrom(ctx));
    if (isLeft(r)) return reply(ctx, r);
    ctx.status = 200;
    ctx.body = { runId: r.right.runId, url: service.runUrl(r.right.runId) };
  });
};
