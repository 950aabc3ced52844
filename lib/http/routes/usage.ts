import type Router from '@koa/router';
import type { Context } from 'koa';
import { isRight } from 'fp-ts/lib/Either.js';
import { usageCsv } from '../../read-models/usage-answer.js';
import type { Service } from '../../service/service.js';
import { decodeOr400, refuseUnknownQuery } from '../decode.js';
import { reply } from '../reply.js';
import { USAGE_QUERY, UsageQuery } from '../usage-query.js';

// What agents cost, summed per day, project, harness, model, workflow or run (docs/usage.md).

const query = (ctx: Context) => {
  refuseUnknownQuery(ctx.query, USAGE_QUERY);
  return decodeOr400(UsageQuery, ctx.query);
};

export const usageRoutes = (router: Router, service: Service): void => {
  router.get('/api/usage', (ctx: Context) => {
    reply(ctx, service.usage(query(ctx)));
  });
  router.get('/api/usage.csv', (ctx: Context) => {
    const answer = service.usage(query(ctx));
    if (!isRight(answer)) return reply(ctx, answer);
    const a = answer.right;
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('content-disposition', `attachment; filename="usage-${a.from}-${a.to}-by-${a.groupBy}.csv"`);
    ctx.body = usageCsv(a);
  });
};
