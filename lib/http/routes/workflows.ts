import type { Router } from '@koa/router';
import type { Context, ParameterizedContext } from 'koa';
import { BodyError, MAX_BODY_BYTES, readJson } from '../../inputs/body.js';
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import { workflowNameProblem } from '../../workflows/catalog-sources.js';
import type { Catalog, ProjectRef } from '../../workflows/catalog.js';
import { cappedDetail, quoted } from '../../../domain/quoted.js';

// /api/workflows: list, read, validate (saved, or a draft not saved), save custom, delete custom. Handlers only decode input,
// ask the catalog and map the answer; a workflow that does not load is a 200 with loads false.

export interface WorkflowRouteDeps {
  resolveProject(id: string): ProjectRef | undefined;
  readonly catalog: Catalog;
}

type Ctx = ParameterizedContext;

const SaveBody = t.strict({ source: t.string });

class HttpRefusal extends Error {
  constructor(readonly status: number, readonly detail: string) {
    super(detail);
  }
}

const refuse = (status: number, detail: string): never => {
  throw new HttpRefusal(status, detail);
};

const queryProject = (ctx: Ctx): string | undefined => {
  const p = ctx.query.project;
  if (Array.isArray(p)) return refuse(400, 'give project once');
  return p === undefined || p === '' ? undefined : p;
};

const projectOf = (ctx: Ctx, deps: WorkflowRouteDeps, required: boolean): ProjectRef | undefined => {
  const id = queryProject(ctx);
  if (id === undefined) return required ? refuse(400, 'the query parameter project (a project id) is required') : undefined;
  return deps.resolveProject(id) ?? refuse(404, `unknown project: ${quoted(id)}`);
};

const nameOf = (ctx: Ctx): string => {
  const name = String(ctx.params.name ?? '');
  const problem = workflowNameProblem(name);
  if (problem) refuse(400, problem);
  return name;
};

// The one body reader (lib/inputs/body.ts): size, media type and Content-Encoding answered as on
// every route. An empty body is told apart, to say what the body should be.
const NO_BODY = Symbol('no body');
const rawBody = async (ctx: Ctx): Promise<unknown> => {
  const body = await readJson(ctx as unknown as Context, MAX_BODY_BYTES, NO_BODY);
  return body === NO_BODY ? refuse(400, 'a JSON body {"source": "..."} is required') : body;
};

// io-ts strips unknown fields; we refuse them instead, so a misspelt field is not silently lost.
const decodeSave = (body: unknown): { source: string } => {
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  if (!isObject) return refuse(400, 'the body must be a JSON object {"source": "..."}');
  const extra = Object.keys(body).filter((k) => k !== 'source');
  if (extra.length > 0) return refuse(400, `unknown field ${extra.slice(0, 5).map(quoted).join(', ')}: the body is {"source": "..."}`);
  const decoded = SaveBody.decode(body);
  if (!isLeft(decoded)) return decoded.right;
  const got = (body as { source?: unknown }).source;
  return refuse(400, got === undefined ? 'source is required (the workflow text)' : `source must be a string (got ${typeof got})`);
};

const handle = (fn: (ctx: Ctx) => Promise<void> | void) => async (ctx: Ctx): Promise<void> => {
  try {
    await fn(ctx);
  } catch (e) {
    // answered here too, not only by the app's error middleware: these routes also mount alone
    if (e instanceof BodyError) {
      ctx.status = e.status;
      ctx.body = { detail: cappedDetail(e.message) };
      return;
    }
    if (!(e instanceof HttpRefusal)) throw e;
    ctx.status = e.status;
    ctx.body = { detail: cappedDetail(e.detail) };
  }
};

export const workflowRoutes = (router: Router, deps: WorkflowRouteDeps): void => {
  const { catalog } = deps;
  router.get('/api/workflows', handle((ctx) => {
    const project = projectOf(ctx, deps, true) as ProjectRef;
    ctx.body = { workflows: catalog.list(project) };
  }));
  router.get('/api/workflows/:name', handle((ctx) => {
    const name = nameOf(ctx);
    const project = projectOf(ctx, deps, true) as ProjectRef;
    ctx.body = catalog.read(project, name) ?? refuse(404, `unknown workflow: ${quoted(name)}`);
  }));
  router.get('/api/workflows/:name/validation', handle((ctx) => {
    const name = nameOf(ctx);
    const project = projectOf(ctx, deps, true) as ProjectRef;
    ctx.body = catalog.validate(project, name) ?? refuse(404, `unknown workflow: ${quoted(name)}`);
  }));
  // A draft from the editor, checked as the custom workflow it would become; nothing is stored.
  router.post('/api/workflows/:name/validation', handle(async (ctx) => {
    const name = nameOf(ctx);
    const project = projectOf(ctx, deps, false);
    const { source } = decodeSave(await rawBody(ctx));
    const checked = catalog.check(name, source, project);
    if (isLeft(checked)) return refuse(400, checked.left._tag === 'Invalid' ? checked.left.detail : 'workflow not checked');
    ctx.body = checked.right;
  }));
  router.put('/api/workflows/:name', handle(async (ctx) => {
    const name = nameOf(ctx);
    const project = projectOf(ctx, deps, false);
    const { source } = decodeSave(await rawBody(ctx));
    const saved = catalog.saveCustom(name, source, project);
    if (isLeft(saved)) return refuse(400, saved.left._tag === 'Invalid' ? saved.left.detail : 'workflow not saved');
    ctx.body = saved.right;
  }));
  router.delete('/api/workflows/:name', handle((ctx) => {
    const name = nameOf(ctx);
    if (!catalog.removeCustom(name)) refuse(404, `no custom workflow named ${quoted(name)} (only custom workflows can be deleted)`);
    ctx.status = 204;
  }));
};
