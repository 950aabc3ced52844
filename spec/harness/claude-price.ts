// What claude itself charges for one answer reporting this many input tokens: a turn on a fresh
// session (no running total to include) against its own scripted model, in a sandbox of its own.
// Tests compare a resumed turn's recorded cost with it instead of copying claude's price table.
import { createAdapters } from '../../lib/harness/registry.js';
import { startModelServer } from '../fixtures/model-server/server.js';
import { sayCostly } from '../fixtures/model-server/script.js';
import { startRunTools } from '../fixtures/run-tools/server.js';
import { cliBin, makeSandbox, turnInput } from './sandbox.js';

export const freshClaudeCost = async (inputTokens: number): Promise<number> => {
  const sb = makeSandbox();
  const model = await startModelServer([sayCostly('priced', inputTokens)]);
  const tools = await startRunTools();
  try {
    const adapter = createAdapters({ commands: { claude: cliBin('claude') }, env: sb.env }).claude;
    const env = { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' };
    const r = await adapter.startTurn(turnInput(sb, { url: tools.url('run-1'), token: tools.token }, { prompt: 'price me', env }).input).result;
    if (r.costUsd === undefined || r.costUsd <= 0) throw new Error(`claude reported no cost: ${r.summary}`);
    return r.costUsd;
  } finally {
    await model.close();
    await tools.close();
    sb.cleanup();
  }
};

export const near = (a: number | undefined, b: number): boolean => a !== undefined && Math.abs(a - b) < 1e-9;
