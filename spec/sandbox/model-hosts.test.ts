import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelHosts } from '../../lib/sandbox/model-hosts.js';
import { tempDir } from '../helpers/env.js';

// The model API each harness's sandboxed step may reach: where the CLI is pointed, else its vendor.

test('a CLI pointed at a base URL gets that host only; otherwise its vendor\'s hosts', (t) => {
  const home = tempDir('svc-mh-');
  t.deepEqual(modelHosts('claude', { HOME: home, ANTHROPIC_BASE_URL: 'http://127.0.0.1:4010' }), ['127.0.0.1:4010']);
  t.true(modelHosts('claude', { HOME: home }).includes('api.anthropic.com'));
  const codexHome = join(home, 'codex');
  mkdirSync(codexHome);
  writeFileSync(join(codexHome, 'config.toml'), '[model_providers.x]\nbase_url = "https://llm.example.com/v1"\n');
  t.deepEqual(modelHosts('codex', { HOME: home, CODEX_HOME: codexHome }), ['llm.example.com:443']);
  t.true(modelHosts('codex', { HOME: home }).includes('api.openai.com'));
  t.deepEqual(modelHosts('opencode', { HOME: home, OPENCODE_CONFIG_CONTENT: JSON.stringify({ provider: { p: { options: { baseURL: 'http://localhost:9000/v1' } } } }) }), ['localhost:9000']);
  t.deepEqual(modelHosts('command', { HOME: home }), []);
});
