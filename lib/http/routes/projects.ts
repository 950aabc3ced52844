import type Router from '@koa/router';
import type { Context } from 'koa';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Service } from '../../root/service.js';
import { readJson } from '../../inputs/body.js';
import { FolderBody, NewProjectBody, ProjectPatchBody } from '../../inputs/codecs.js';
import { decodeOr400, refuseUnknownFields } from '../decode.js';
import { reply } from '../reply.js';
import { updateProject } from '../../service/projects.js';

// Projects: GET/POST /api/projects, GET/PATCH /api/projects/:id, POST /api/projects/:id/folders,
// DELETE /api/projects/:id/folders/:name.

const outward = (p: { id: string; name: string; folders: readonly { name: string; path: string }[]; primaryFolder: string; defaultWorkflow: string; autoMerge: unknown }) => p;

export const projectRoutes = (router: Router, service: Service): void => {
  const id = (ctx: Context) => ctx.params['projectId']!;
  router.get('/api/projects', (ctx: Context) => {
    ctx.body = service.listProjects().map(outward);
  });
  router.post('/api/projects', async (ctx: Context) => {
    const raw = await readJson(ctx);
    refuseUnknownFields(raw, ['name', 'folders']);
    const b = decodeOr400(NewProjectBody, raw);
    reply(ctx, await service.addProject(b.name, b.folders));
  });
  router.get('/api/projects/:projectId', (ctx: Context) => reply(ctx, service.getProject(id(ctx))));
  router.patch('/api/projects/:projectId', async (ctx: Context) => {
    const raw = await readJson(ctx);
    refuseUnknownFields(raw, ['name', 'defaultWorkflow', 'primaryFolder', 'autoMerge', 'dailyBudgetUsd', 'sandbox', 'egressAllow', 'egressAllowFull', 'preview', 'runOn']);
    const b = decodeOr400(ProjectPatchBody, raw);
    const found = service.getProject(id(ctx));
    reply(ctx, isLeft(found) ? found : updateProject(service.core, found.right.id, b));
  });
  router.post('/api/projects/:projectId/folders', async (ctx: Context) => {
    const raw = await readJson(ctx);
    refuseUnknownFields(raw, ['path', 'name']);
    const b = decodeOr400(FolderBody, raw);
    reply(ctx, await service.addFolder(id(ctx), b));
  });
  router.delete('/api/projects/:projectId/folders/:name', (ctx: Context) => reply(ctx, service.removeFolder(id(ctx), ctx.params['name']!)));
};
