import type Router from '@koa/router';
import type { Context } from 'koa';
import type * as t from 'io-ts';
import type { Service } from '../../root/service.js';
import type { SettingSource } from '../../../domain/settings.js';
import { CHAT_FIELDS, ChatBody, DECISION_FIELDS, DecisionBody, NEW_SUPERVISOR_FIELDS, NewSupervisorBody, SUPERVISOR_PATCH_FIELDS, SupervisorPatchBody } from '../../supervisors/http-codecs.js';
import { decideCard, listApprovals } from '../../supervisors/approvals.js';
import { mayQuery } from '../../supervisors/may.js';
import { readJson } from '../../inputs/body.js';
import { decodeOr400, refuseUnknownFields, refuseUnknownQuery } from '../decode.js';
import { intParam, reply } from '../reply.js';

// Supervisors: GET/POST /api/supervisors, PATCH /api/supervisors/:id, POST /api/supervisors/:id/key,
// the approval cards, GET /api/supervisors/:id/may (what the rules would say to a call now), and
// its chat: GET .../chat?before=&pageSize= (pages, like the run thread) and POST .../chat {text};
// GET /api/chats lists every supervisor's chat.
// Each change is recorded with its sender (the svc-setting-source header), like settings.

const sourceOf = (ctx: Context): SettingSource => ({ via: 'http', sender: ctx.get('svc-setting-source').trim().slice(0, 120) || null });

const body = async <A>(ctx: Context, fields: readonly string[], codec: t.Decoder<unknown, A>): Promise<A> => {
  const raw = await readJson(ctx);
  refuseUnknownFields(raw, fields);
  return decodeOr400(codec, raw);
};

export const supervisorRoutes = (router: Router, service: Service): void => {
  const sups = service.core.supervisors;
  const id = (ctx: Context) => ctx.params['supervisorId']!;
  router.get('/api/supervisors', (ctx: Context) => {
    ctx.body = sups.list();
  });
  router.post('/api/supervisors', async (ctx: Context) => {
    const b = await body(ctx, NEW_SUPERVISOR_FIELDS, NewSupervisorBody);
    reply(ctx, sups.create(b.project, sourceOf(ctx)));
  });
  router.get('/api/supervisors/:supervisorId', (ctx: Context) => reply(ctx, sups.view(id(ctx))));
  router.patch('/api/supervisors/:supervisorId', async (ctx: Context) => {
    const b = await body(ctx, SUPERVISOR_PATCH_FIELDS, SupervisorPatchBody);
    reply(ctx, sups.change(id(ctx), b, sourceOf(ctx)));
  });
  router.post('/api/supervisors/:supervisorId/key', async (ctx: Context) => {
    refuseUnknownFields(await readJson(ctx), []);
    reply(ctx, sups.regenerateKey(id(ctx), sourceOf(ctx)));
  });
  router.get('/api/supervisors/:supervisorId/approvals', (ctx: Context) => reply(ctx, listApprovals(service, id(ctx))));
  router.post('/api/supervisors/:supervisorId/approvals/:card', async (ctx: Context) => {
    const b = await body(ctx, DECISION_FIELDS, DecisionBody);
    reply(ctx, await decideCard(service, id(ctx), ctx.params['card']!, { ...b, sender: sourceOf(ctx).sender }));
  });
  router.get('/api/supervisors/:supervisorId/chat', (ctx: Context) => {
    refuseUnknownQuery(ctx.query, CHAT_QUERY);
    reply(ctx, service.readChat(id(ctx), intParam(ctx, 'before', 1, Number.MAX_SAFE_INTEGER, undefined), intParam(ctx, 'pageSize', 1, 200, 25)!));
  });
  router.post('/api/supervisors/:supervisorId/chat', async (ctx: Context) => {
    const b = await body(ctx, CHAT_FIELDS, ChatBody);
    reply(ctx, service.writeChat(id(ctx), b.text, sourceOf(ctx).sender));
  });
  // the spec's "chats" group: each supervisor's chat, and where to read it
  router.get('/api/chats', (ctx: Context) => {
    refuseUnknownQuery(ctx.query, []);
    ctx.body = { chats: service.listChats() };
  });
  router.get('/api/supervisors/:supervisorId/may', (ctx: Context) => {
    const q = (k: string): string | undefined => (typeof ctx.query[k] === 'string' ? (ctx.query[k] as string) : undefined);
    refuseUnknownQuery(ctx.query, MAY_FIELDS);
    reply(ctx, mayQuery(service, id(ctx), { tool: q('tool'), action: q('action'), run: q('run'), project: q('project'), harness: q('harness') }));
  });
};

const MAY_FIELDS = ['tool', 'action', 'run', 'project', 'harness'];
const CHAT_QUERY = ['before', 'pageSize'];
