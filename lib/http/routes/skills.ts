import type Router from '@koa/router';
import type { Context } from 'koa';
import * as t from 'io-ts';
import { install, listSkills, type SkillsDeps } from '../../skills/skills.js';
import { HARNESSES } from '../../../domain/workflow.js';
import { BodyError, readJson } from '../../inputs/body.js';
import { decodeOr400, refuseUnknownFields } from '../decode.js';

// /api/skills: the bundled skills and, per harness, whether each is installed and at which
// version; /api/skills/install copies one into a harness's user skill folder.

const Harness = t.keyof(Object.fromEntries(HARNESSES.map((h) => [h, null])) as Record<(typeof HARNESSES)[number], null>, `one of ${HARNESSES.join(', ')}`);
const InstallBody = t.intersection([t.type({ skill: t.string, harness: Harness }), t.partial({ force: t.boolean })]);

export const skillRoutes = (router: Router, deps: SkillsDeps): void => {
  router.get('/api/skills', (ctx: Context) => {
    ctx.body = { skills: listSkills(deps) };
  });
  router.post('/api/skills/install', async (ctx: Context) => {
    const body = await readJson(ctx);
    refuseUnknownFields(body, ['skill', 'harness', 'force']);
    const req = decodeOr400(InstallBody, body);
    const r = install(deps, { skill: req.skill, harness: req.harness, force: req.force ?? false });
    if (r._tag === 'Left') throw new BodyError(r.left.status, r.left.detail);
    ctx.body = r.right;
  });
};
