// The model API hosts a harness's CLI must reach: where the user pointed it (a base URL in its
// environment or its own config), else the vendor's hosts, login refresh included. A CLI pointed
// elsewhere gets only that: its vendor's hosts are not its model API then. Read the way each CLI
// reads them; a URL that does not parse is left out (the CLI fails as it would anyway).
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { entryOf } from './allowlist.js';
import type { SandboxedTool } from './home.js';

const VENDOR: Readonly<Record<SandboxedTool, readonly string[]>> = {
  claude: ['api.anthropic.com', 'console.anthropic.com', 'platform.claude.com', 'claude.ai'],
  codex: ['api.openai.com', 'chatgpt.com', 'auth.openai.com'],
  // opencode installs a provider's npm package on first use
  opencode: ['api.anthropic.com', 'api.openai.com', 'opencode.ai', 'models.dev', 'registry.npmjs.org'],
  command: [],
};

const readText = (path: string): string => (existsSync(path) ? readFileSync(path, 'utf8') : '');

// base_url = "…" (codex's config.toml) and "baseURL": "…" (opencode's JSON config), wherever they appear
const urlsIn = (text: string): string[] =>
  [...text.matchAll(/(?:base_url\s*=\s*|"base_?url"\s*:\s*)"([^"]+)"/gi)].map((m) => m[1]!);

const configured = (tool: SandboxedTool, env: NodeJS.ProcessEnv): string[] => {
  const home = env['HOME'] || homedir();
  switch (tool) {
    case 'claude': return [env['ANTHROPIC_BASE_URL'] ?? ''];
    case 'codex': return [env['OPENAI_BASE_URL'] ?? '', ...urlsIn(readText(join(env['CODEX_HOME'] || join(home, '.codex'), 'config.toml')))];
    case 'opencode': {
      const dir = join(env['XDG_CONFIG_HOME'] || join(home, '.config'), 'opencode');
      return [env['OPENCODE_CONFIG_CONTENT'] ?? '', readText(join(dir, 'opencode.json')), readText(join(dir, 'opencode.jsonc'))].flatMap(urlsIn);
    }
    case 'command': return [];
  }
};

export const modelHosts = (tool: SandboxedTool, env: NodeJS.ProcessEnv): string[] => {
  const pointed = configured(tool, env).map((u) => (u ? entryOf(u) : undefined)).filter((e): e is string => e !== undefined);
  return [...new Set(pointed.length ? pointed : VENDOR[tool])];
};
