import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startRunTools } from '../fixtures/run-tools/server.js';

const connect = async (url: string, token: string): Promise<Client> => {
  const client = new Client({ name: 'spec', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
};

const textOf = (r: unknown): string =>
  ((r as { content: { type: string; text: string }[] }).content ?? []).map((c) => c.text).join('');

test('lists ask_question and report_outcome', async (t) => {
  const rt = await startRunTools();
  t.teardown(() => rt.close());
  const client = await connect(rt.url('run-1'), rt.token);
  const { tools } = await client.listTools();
  t.deepEqual(tools.map((x) => x.name).sort(), ['ask_question', 'report_outcome']);
  await client.close();
});

test('ask_question waits for the backend answer and returns it', async (t) => {
  let release: (a: string) => void = () => {};
  const rt = await startRunTools(() => new Promise((resolve) => (release = (a) => resolve({ answer: a }))));
  t.teardown(() => rt.close());
  const client = await connect(rt.url('run-2'), rt.token);
  const pending = client.callTool({ name: 'ask_question', arguments: { prompt: 'Which colour?', options: ['red', 'blue'] } });
  await new Promise((r) => setTimeout(r, 300));
  t.is(rt.questions.length, 1);
  t.deepEqual(rt.questions[0], { runId: 'run-2', question: { prompt: 'Which colour?', options: ['red', 'blue'], allowText: true } });
  release('blue');
  t.is(textOf(await pending), 'The user answered: blue');
  await client.close();
});

test('a withdrawn question says so', async (t) => {
  const rt = await startRunTools(async () => ({ withdrawn: 'run aborted' }));
  t.teardown(() => rt.close());
  const client = await connect(rt.url('run-3'), rt.token);
  const r = await client.callTool({ name: 'ask_question', arguments: { prompt: 'Go on?', allowText: false } });
  t.is(textOf(r), 'The question was withdrawn: run aborted');
  t.false(rt.questions[0].question.allowText);
  await client.close();
});

test('report_outcome reaches the backend; bad arguments are a tool error', async (t) => {
  const rt = await startRunTools();
  t.teardown(() => rt.close());
  const client = await connect(rt.url('run-4'), rt.token);
  const ok = await client.callTool({ name: 'report_outcome', arguments: { outcome: 'success', summary: 'did it' } });
  t.false(Boolean(ok.isError));
  t.deepEqual(rt.outcomes, [{ runId: 'run-4', outcome: { outcome: 'success', summary: 'did it' } }]);
  const bad = await client.callTool({ name: 'report_outcome', arguments: { outcome: 'meh' } });
  t.true(Boolean(bad.isError));
  t.is(rt.outcomes.length, 1);
  await client.close();
});

test('a wrong bearer token is refused with 401, a challenge and a detail saying whose token it takes', async (t) => {
  const rt = await startRunTools();
  t.teardown(() => rt.close());
  const res = await fetch(rt.url('run-5'), {
    method: 'POST',
    headers: { authorization: 'Bearer nope', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  t.is(res.status, 401);
  t.regex(res.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token", error_description=".*step's own token/);
  t.regex(((await res.json()) as { detail: string }).detail, /current step's own token/);
  t.is(rt.refused(), 1);
});
