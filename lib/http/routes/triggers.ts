import type Router from '@koa/router';
import type { Context } from 'koa';
import type * as t from 'io-ts';
import { isLeft, right } from 'fp-ts/lib/Either.js';
import type { Service } from '../../root/service.js';
import type { FireOutcome } from '../../triggers/fire.js';
import { EVENT_FIELDS, EventBody, NewRuleBody, PATCH_FIELDS, RULE_FIELDS, RulePatchBody } from '../../triggers/http-codecs.js';
import { DELIVERY_HEADER, SECRET_HEADER } from '../../triggers/sources/webhook.js';
import type { Triggers } from '../../triggers/triggers.js';
import { BodyError, readJson } from '../../inputs/body.js';
import { decodeOr400, refuseUnknownFields } from '../decode.js';
import { intParam, reply } from '../reply.js';
import { quoted } from '../../../domain/quoted.js';

// Trigger rules: GET/POST /api/triggers, GET/PATCH/DELETE /api/triggers/:id,
// POST /api/triggers/:id/fire (run now), GET /api/triggers/:id/events (what each event started),
// POST /api/triggers/:id/events (a webhook delivery, with the rule's secret).

const DELIVERY_ID = /^[\x21-\x7e]{1,200}$/;

const triggersOf = (service: Service): Triggers => service.triggers;

const fired = (service: Service, ctx: Context, o: FireOutcome): void => {
  const run = o._tag === 'Refused' ? {} : o.runId ? { runId: o.runId, url: service.runUrl(o.runId) } : {};
  ctx.status = o._tag === 'Refused' ? 409 : 200;
  ctx.body = { event: o.eventId, outcome: o._tag, ...run, ...(o._tag === 'Refused' ? { detail: o.reason } : {}) };
};

const badSecret = (ctx: Context, ruleId: string): void => {
  ctx.status = 401;
  ctx.body = { detail: `missing or wrong ${SECRET_HEADER} header for trigger rule ${quoted(ruleId)}` };
};

const body = async <A>(ctx: Context, fields: readonly string[], codec: t.Decoder<unknown, A>): Promise<A> => {
  const raw = await readJson(ctx);
  refuseUnknownFields(raw, fields);
  return decodeOr400(codec, raw);
};

export const triggerRoutes = (router: Router, service: Service): void => {
  const tr = () => triggersOf(service);
  const id = (ctx: Context) => ctx.params['ruleId']!;
  router.get('/api/triggers', (ctx: Context) => { ctx.body = tr().list(); });
  router.post('/api/triggers', async (ctx: Context) => {
    const r = tr().create(await body(ctx, RULE_FIELDS, NewRuleBody));
    reply(ctx, isLeft(r) ? r : right({ ...r.right.rule, ...(r.right.secret ? { secret: r.right.secret } : {}) }));
  });
  router.get('/api/triggers/:ruleId', (ctx: Context) => reply(ctx, tr().get(id(ctx))));
  router.patch('/api/triggers/:ruleId', async (ctx: Context) => {
    const r = tr().change(id(ctx), await body(ctx, PATCH_FIELDS, RulePatchBody));
    reply(ctx, isLeft(r) ? r : right({ ...r.right.rule, ...(r.right.secret ? { secret: r.right.secret } : {}) }));
  });
  router.delete('/api/triggers/:ruleId', (ctx: Context) => reply(ctx, tr().remove(id(ctx))));
  router.post('/api/triggers/:ruleId/fire', async (ctx: Context) => {
    const r = tr().fireNow(id(ctx), await body(ctx, EVENT_FIELDS, EventBody));
    return isLeft(r) ? reply(ctx, r) : fired(service, ctx, r.right);
  });
  router.get('/api/triggers/:ruleId/events', (ctx: Context) => reply(ctx, tr().events(id(ctx), intParam(ctx, 'limit', 1, 100, 50)!)));
  router.post('/api/triggers/:ruleId/events', async (ctx: Context) => {
    const delivery = ctx.get(DELIVERY_HEADER);
    if (delivery !== '' && !DELIVERY_ID.test(delivery)) throw new BodyError(400, `${DELIVERY_HEADER} must be 1 to 200 visible ASCII characters`);
    const admitted = tr().admits(id(ctx), ctx.get(SECRET_HEADER));
    if (isLeft(admitted)) return reply(ctx, admitted);
    if (!admitted.right) return badSecret(ctx, id(ctx));
    const raw = await readJson(ctx);
    refuseUnknownFields(raw, EVENT_FIELDS);
    const r = tr().deliver(id(ctx), ctx.get(SECRET_HEADER), delivery || null, decodeOr400(EventBody, raw), JSON.stringify(raw));
    if (isLeft(r)) return reply(ctx, r);
    return r.right._tag === 'BadSecret' ? badSecret(ctx, id(ctx)) : fired(service, ctx, r.right.outcome);
  });
};
