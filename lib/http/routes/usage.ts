import type Router from '@koa/router';
import type { Context } from 'koa';
import { isRight } from 'fp-ts/lib/Either.js';
import { usageCsv, type UsageAnswer } from '../../read-models/usage-answer.js';
import type { Service } from '../../root/service.js';
import { decodeInput, refuseUnknownQuery } from '../decode.js';
import { reply } from '../reply.js';
import { answerJson } from '../../read-models/usage-kept.js';
import { USAGE_JSON_QUERY, USAGE_QUERY, UsageQuery } from '../../inputs/usage.js';

// What agents cost, summed per day, project, harness, model, workflow or run (docs/usage.md).

const csvs = new WeakMap<UsageAnswer, string>();
const csvOf = (a: UsageAnswer): string => {
  let csv = csvs.get(a);
  if (csv === undefined) csvs.set(a, (csv = usageCsv(a)));
  return csv;
};

const query = (ctx: Context, known: readonly string[] = USAGE_QUERY) => {
  refuseUnknownQuery(ctx.query, known);
  return decodeInput(UsageQuery, ctx.query);
};

export const usageRoutes = (router: Router, service: Service): void => {
  router.get('/api/usage', (ctx: Context) => {
    const answer = service.usage(query(ctx, USAGE_JSON_QUERY));
    if (!isRight(answer)) return reply(ctx, answer);
    // kept answers are encoded once, from rows encoded as they were made
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    ctx.body = answerJson(answer.right);
  });
  router.get('/api/usage.csv', (ctx: Context) => {
    const answer = service.usage(query(ctx));
    if (!isRight(answer)) return reply(ctx, answer);
    const a = answer.right;
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('content-disposition', `attachment; filename="usage-${a.from}-${a.to}-by-${a.groupBy}.csv"`);
    ctx.body = csvOf(a);
  });
};
