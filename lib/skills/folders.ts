import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HarnessName } from '../../domain/workflow.js';

// Each CLI's folder of user skills (one sub-folder per skill, holding SKILL.md). All three read
// the Agent Skills format (SKILL.md with YAML front matter `name`, `description`); they differ in
// where a user's own skills live. Checked against the CLIs this package pins (spec/skills):
// - Claude Code: ~/.claude/skills/<name>/SKILL.md
// - Codex: $HOME/.agents/skills/<name>/SKILL.md (its documented user scope; it also reads
//   $CODEX_HOME/skills, which moves with CODEX_HOME, so we do not write there)
// - OpenCode: $XDG_CONFIG_HOME/opencode/skills/<name>/SKILL.md (~/.config/... without it). It also
//   reads ~/.claude/skills and ~/.agents/skills, so a skill installed for claude or codex shows there too.

export const skillsRoot = (harness: HarnessName, env: NodeJS.ProcessEnv = process.env): string => {
  const home = env['HOME'] || homedir();
  switch (harness) {
    case 'claude': return join(home, '.claude', 'skills');
    case 'codex': return join(home, '.agents', 'skills');
    case 'opencode': return join(env['XDG_CONFIG_HOME'] || join(home, '.config'), 'opencode', 'skills');
  }
};
