import type Router from '@koa/router';
import type { Context } from 'koa';
import { decodePersonaInput } from '../../personas/input.js';
import { listPersonas, readPersona, savePersona } from '../../personas/personas.js';
import { workflowNameProblem } from '../../workflows/catalog-sources.js';
import type { Catalog, ProjectRef } from '../../workflows/catalog.js';
import { BodyError, readJson } from '../../inputs/body.js';
import { quoted } from '../../../domain/quoted.js';

// /api/personas: list and read (optionally as a project sees them), save and delete custom ones.
// Handlers decode the input, ask lib/personas and map the answer; bad input is a 4xx with a detail.

export interface PersonaRouteDeps {
  readonly catalog: Catalog;
  resolveProject(id: string): ProjectRef | undefined;
}

const projectOf = (ctx: Context, deps: PersonaRouteDeps): ProjectRef | undefined => {
  const id = ctx.query['project'];
  if (Array.isArray(id)) throw new BodyError(400, 'give project once');
  if (id === undefined || id === '') return undefined;
  const found = deps.resolveProject(id);
  if (!found) throw new BodyError(404, `unknown project: ${quoted(id)}`);
  return found;
};

const nameOf = (ctx: Context): string => {
  const name = String(ctx.params['name'] ?? '');
  const problem = workflowNameProblem(name);
  if (problem) throw new BodyError(400, problem.replace('workflow name', 'persona name'));
  return name;
};

export const personaRoutes = (router: Router, deps: PersonaRouteDeps): void => {
  const { catalog } = deps;
  router.get('/api/personas', (ctx: Context) => {
    ctx.body = { personas: listPersonas(catalog, projectOf(ctx, deps)) };
  });
  router.get('/api/personas/:name', (ctx: Context) => {
    const name = nameOf(ctx);
    const found = readPersona(catalog, name, projectOf(ctx, deps));
    if (!found) throw new BodyError(404, `unknown persona: ${quoted(name)}`);
    ctx.body = found;
  });
  router.put('/api/personas/:name', async (ctx: Context) => {
    const name = nameOf(ctx);
    const input = decodePersonaInput(await readJson(ctx));
    if (typeof input === 'string') throw new BodyError(400, input);
    const saved = savePersona(catalog, name, input);
    if (saved._tag === 'Left') throw new BodyError(400, saved.left);
    ctx.body = saved.right;
  });
  router.delete('/api/personas/:name', (ctx: Context) => {
    const name = nameOf(ctx);
    if (!catalog.removeCustomPersona(name)) throw new BodyError(404, `no custom persona named ${quoted(name)} (only custom personas can be deleted)`);
    ctx.status = 204;
  });
};
