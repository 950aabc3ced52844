import type * as t from 'io-ts';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Service } from '../../root/service.js';
import type { StartedAttempt, StartRunInput } from '../../../domain/runs.js';
import { readJson } from '../../inputs/body.js';
import { StartRunBody } from '../../inputs/start.js';
import { decodeInput } from '../decode.js';
import { BodyError } from '../../inputs/body.js';
import { personFrom, reply } from '../reply.js';
import { noneMatchHas } from '../if-none-match.js';
import { GZIP_FROM_BYTES, RunsListBody } from '../runs-list-body.js';

// GET /api/runs, GET /api/runs/:runId, POST /api/runs.

type StartBody = t.TypeOf<typeof StartRunBody>;

// The legacy `ticket` becomes the goal when there is none, and is passed as an input named
// `ticket`; a workflow that does not declare that input refuses it like any undeclared input.
export const startInputFrom = (b: StartBody): StartRunInput => {
  // the decoder has made sure one of them is there
  const goal = (b.goal ?? b.ticket)!;
  const inputs = b.ticket === undefined ? b.inputs : { ...b.inputs, ticket: b.ticket };
  return {
    project: b.project, goal,
    ...(b.workflow !== undefined ? { workflow: b.workflow } : {}), ...(inputs ? { inputs } : {}),
    ...(b.title !== undefined ? { title: b.title } : {}), ...(b.harness !== undefined ? { harness: b.harness } : {}),
    ...(b.model !== undefined ? { model: b.model } : {}), ...(b.start !== undefined ? { start: b.start } : {}),
    ...(b.reason !== undefined ? { reason: b.reason } : {}), ...(b.attempts !== undefined ? { attempts: b.attempts } : {}),
    ...(b.budgetUsd !== undefined ? { budgetUsd: b.budgetUsd } : {}),
  };
};

const attemptsAnswer = (service: Service, list: readonly StartedAttempt[]) => list.map((a) => ({ ...a, url: service.runUrl(a.runId) }));

export const runRoutes = (router: Router, service: Service): void => {
  const list = new RunsListBody();
  // The list is large (10,000 runs: ~2.7 MB) and mostly unchanged between reads: a weak ETag from
  // the list's version (no hashing), 304 when the client has it, gzip when the client takes it.
  router.get('/api/runs', async (ctx: Context) => {
    // Where the push stream's runs scope stands for this body: open /api/events?runs with it as
    // Last-Event-ID and no change is missed or applied twice.
    ctx.set('svc-event-id', service.events.runs.cursor());
    const version = service.httpRunsVersion();
    const etag = `W/"runs-${version}"`;
    ctx.status = 200;
    ctx.set('ETag', etag);
    ctx.set('Cache-Control', 'no-cache');
    ctx.vary('Accept-Encoding');
    if (noneMatchHas(ctx.get('If-None-Match'), etag)) {
      ctx.status = 304;
      return;
    }
    const json = () => service.httpRunsJson();
    const plain = list.identity(version, json);
    ctx.type = 'application/json';
    if (plain.length >= GZIP_FROM_BYTES && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      const zipped = await list.gzipped(version, json);
      ctx.set('Content-Encoding', 'gzip');
      ctx.body = zipped;
    } else {
      ctx.body = plain;
    }
  });
  // The app's runs board: the rows of GET /api/runs with what triage needs (see runs-board.ts).
  router.get('/api/board', (ctx: Context) => {
    const archived = ctx.query['archived'];
    const needs = ctx.query['needs'];
    if (archived !== undefined && archived !== 'true' && archived !== 'false') throw new BodyError(400, 'archived is true or false');
    if (needs !== undefined && needs !== 'true' && needs !== 'false') throw new BodyError(400, 'needs is true or false');
    ctx.set('svc-event-id', service.events.runs.cursor());
    ctx.type = 'application/json';
    ctx.body = service.boardJson(archived === 'true', needs === 'true');
  });
  router.get('/api/runs/:runId', (ctx: Context) => reply(ctx, service.getHttpRun(ctx.params['runId']!)));
  router.get('/api/runs/:runId/detail', (ctx: Context) => reply(ctx, service.getRun(ctx.params['runId']!)));
  router.post('/api/runs', async (ctx: Context) => {
    const r = service.startRun(startInputFrom(decodeInput(StartRunBody, await readJson(ctx))), personFrom(ctx));
    if (isLeft(r)) return reply(ctx, r);
    ctx.status = 200;
    ctx.body = { runId: r.right.runId, url: service.runUrl(r.right.runId), ...(r.right.attempts ? { attempts: attemptsAnswer(service, r.right.attempts) } : {}) };
  });
};
