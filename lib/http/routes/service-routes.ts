import type Router from '@koa/router';
import { machineSandbox } from '../../service/sandbox.js';
import { harnessRows } from '../../root/harness-windows.js';
import type { Context } from 'koa';
import { publicSettings } from '../../../projections/settings.js';
import { readToken, regenerateToken } from '../../auth/mcp-token.js';
import { refreshAvailability } from '../../root/open.js';
import type { Service } from '../../root/service.js';
import { SettingChangeCodec } from '../../../domain/settings-codec.js';
import type { SettingSource } from '../../../domain/settings.js';
import { readJson } from '../../inputs/body.js';
import { START_NEEDS_QUERY, StartNeedsQuery } from '../../inputs/codecs.js';
import { decodeOr400, refuseUnknownFields, refuseUnknownQuery } from '../decode.js';
import { reply } from '../reply.js';

// Health, settings (with the source of each change), the MCP connection, harness readiness.

const sourceOf = (ctx: Context): SettingSource => ({ via: 'http', sender: ctx.get('svc-setting-source').trim().slice(0, 120) || null });

export const serviceRoutes = (router: Router, service: Service): void => {
  router.get('/api/health', (ctx: Context) => {
    ctx.body = service.health();
  });
  router.get('/api/settings', (ctx: Context) => {
    ctx.body = publicSettings(service.settings());
  });
  router.put('/api/settings', async (ctx: Context) => {
    const change = decodeOr400(SettingChangeCodec, await readJson(ctx));
    ctx.body = service.changeSetting(change, sourceOf(ctx));
  });
  // the notification command's last failure (docs/shipping.md): null when none failed; and why
  // the command stored cannot run, if it cannot (one stored before the decoder refused it)
  router.get('/api/settings/notify-command', (ctx: Context) => {
    ctx.body = { lastFailure: service.notify.record.current.lastFailure, problem: service.notify.notifier.problem() };
  });
  router.get('/api/settings/changes', (ctx: Context) => {
    ctx.body = { changes: service.recentSettingChanges() };
  });
  router.get('/api/settings/mcp', (ctx: Context) => {
    const s = service.settings().mcp;
    ctx.body = { url: `${service.core.baseUrl}/mcp`, token: readToken(service.core.home), enabled: s.enabled, groups: s.groups };
  });
  router.post('/api/settings/mcp/token', async (ctx: Context) => {
    refuseUnknownFields(await readJson(ctx), []);
    const token = regenerateToken(service.core.home);
    service.recordTokenRegenerated(sourceOf(ctx));
    ctx.body = { token };
  });
  router.get('/api/harnesses', (ctx: Context) => {
    ctx.body = { harnesses: harnessRows(service.core), sandbox: machineSandbox() };
  });
  // what a start would need (project, workflow, harness as the New run form has them chosen)
  router.get('/api/harnesses/needed', (ctx: Context) => {
    refuseUnknownQuery(ctx.query, START_NEEDS_QUERY);
    reply(ctx, service.startNeeds(decodeOr400(StartNeedsQuery, ctx.query)));
  });
  router.post('/api/harnesses/check', async (ctx: Context) => {
    refuseUnknownFields(await readJson(ctx), []);
    await refreshAvailability(service.core);
    ctx.body = { harnesses: harnessRows(service.core), sandbox: machineSandbox() };
  });
};
