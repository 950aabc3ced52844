import { api } from '../api.js';
import { SkillCard } from '../components/skill-card.js';
import type { Skill } from '../components/skill-shapes.js';
import { useLoad } from '../components/use-load.js';
import { useSave } from '../components/use-save.js';
import type { PageProps } from '../page-props.js';
import { ErrorNote, Loading, PageHeading } from '../ui/page.js';

// Skills (docs/skills.md): the skills svc bundles for coding agents outside it, and per harness
// whether each is installed in that CLI's skill folder under your HOME, at which version, with
// Install / Update. The folders can change outside svc: Check again reads them again.

export const Page = (_: PageProps) => {
  const skills = useLoad(() => api<{ skills: Skill[] }>('skills'), []);
  const check = useSave();
  const list = skills.data?.skills;
  return (
    <section aria-labelledby="page-title">
      <PageHeading title="Skills">
        <button type="button" disabled={check.busy} onClick={() => void check.run(() => skills.reload(), 'Checked again.')}>Check again</button>
      </PageHeading>
      <p class="muted about">Instructions svc ships for Claude Code, Codex and OpenCode used outside svc, such as driving runs over svc's MCP tools. Installing copies a skill into that CLI's own skill folder; a CLI reads its skills when it starts.</p>
      <p class="note" role="status">{check.done}</p>
      <ErrorNote error={skills.error} />
      {!list ? (skills.error ? null : <Loading what="skills" />) : list.length === 0 ? <p class="muted">svc bundles no skill.</p>
        : list.map((s) => <SkillCard key={s.name} skill={s} onInstalled={skills.reload} />)}
    </section>
  );
};
