// The per-run tool server agents call from inside a turn (ask_question, report_outcome). MCP over
// Streamable HTTP, stateless (a fresh Server + transport per POST) with JSON responses, except an
// ask_question call: it answers as an event stream that carries progress notifications
// (keep-alive.ts) until the backend has an answer. The CLIs' own MCP tool timeouts are raised by
// the harness adapters so that wait can be long; the hosting http.Server must not time requests
// out either (requestTimeout 0).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import { quoted } from '../../domain/quoted.js';
import { callWithBadArguments, readRpcBody, tooDeepText } from './request-body.js';
import { keepAlive, PROGRESS_EVERY_MS } from './keep-alive.js';

export const ASK_QUESTION = 'ask_question';
export const REPORT_OUTCOME = 'report_outcome';

export const runToolList = [
  {
    name: ASK_QUESTION,
    description:
      'Ask the people running this workflow a question and wait for their answer. Use when you cannot proceed without a decision. The call returns the answer.',
    inputSchema: {
      type: 'object' as const,
      properties: {
        prompt: { type: 'string', description: 'The question, self-contained.' },
        options: { type: 'array', items: { type: 'string' }, description: 'Choices to offer, if any.' },
        allowText: { type: 'boolean', description: 'Whether a free-text answer is allowed (default true).' },
      },
      required: ['prompt'],
    },
  },
  {
    name: REPORT_OUTCOME,
    description: 'Report the outcome of this workflow step: success or failure, with a short summary of what was done.',
    inputSchema: {
      type: 'object' as const,
      properties: {
        outcome: { type: 'string', enum: ['success', 'failure'] },
        summary: { type: 'string', description: 'One or two sentences on what happened.' },
      },
      required: ['outcome', 'summary'],
    },
  },
];

const AskArgs = t.intersection([
  t.type({ prompt: t.string }),
  t.partial({ options: t.array(t.string), allowText: t.boolean }),
]);
const OutcomeArgs = t.type({ outcome: t.union([t.literal('success'), t.literal('failure')]), summary: t.string });

export interface Question {
  readonly prompt: string;
  readonly options?: readonly string[];
  readonly allowText: boolean;
}
export interface ReportedOutcome {
  readonly outcome: 'success' | 'failure';
  readonly summary: string;
}

export const decodeQuestion = (args: unknown): Question | string => {
  const r = AskArgs.decode(args ?? {});
  if (isLeft(r)) return 'ask_question needs {prompt: string, options?: string[], allowText?: boolean}';
  const { prompt, options, allowText } = r.right;
  return { prompt, ...(options ? { options } : {}), allowText: allowText ?? true };
};

export const decodeOutcome = (args: unknown): ReportedOutcome | string => {
  const r = OutcomeArgs.decode(args ?? {});
  return isLeft(r) ? 'report_outcome needs {outcome: "success" | "failure", summary: string}' : r.right;
};

export interface RunToolsBackend {
  authorize(runId: string, token: string): boolean;
  askQuestion(runId: string, question: Question): Promise<{ answer: string | string[] } | { withdrawn: string }>;
  reportOutcome(runId: string, outcome: ReportedOutcome): void;
}

export const runToolsPath = '/run-tools/:runId/mcp';

const text = (body: string, isError = false): CallToolResult => ({ content: [{ type: 'text', text: body }], isError });

const answerText = (answer: string | string[]): string =>
  Array.isArray(answer) ? `The user answered: ${answer.join(', ')}` : `The user answered: ${answer}`;

type Waiting = <T>(work: Promise<T>) => Promise<T>;

const callTool = async (backend: RunToolsBackend, runId: string, name: string, args: unknown, waiting: Waiting = (w) => w): Promise<CallToolResult> => {
  if (name === ASK_QUESTION) {
    const q = decodeQuestion(args);
    if (typeof q === 'string') return text(q, true);
    const reply = await waiting(backend.askQuestion(runId, q));
    return 'withdrawn' in reply ? text(`The question was withdrawn: ${reply.withdrawn}`) : text(answerText(reply.answer));
  }
  if (name === REPORT_OUTCOME) {
    const o = decodeOutcome(args);
    if (typeof o === 'string') return text(o, true);
    backend.reportOutcome(runId, o);
    return text(`Outcome recorded: ${o.outcome}.`);
  }
  return text(`Unknown tool ${quoted(name)}`, true);
};

const serverFor = (backend: RunToolsBackend, runId: string, progressEveryMs: number): Server => {
  const server = new Server({ name: 'svc-run-tools', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: runToolList }));
  server.setRequestHandler(CallToolRequestSchema, (req, extra) => callTool(backend, runId, req.params.name, req.params.arguments, (w) => keepAlive(extra, progressEveryMs, w)));
  return server;
};

// These tools belong to one step of one run: the token is made for that step, given to its agent
// in its MCP configuration, and ends with the step.
const RUN_TOOLS_REFUSED = "this run's tool endpoint takes the current step's own token (Authorization: Bearer), which svc gives the step's agent; it no longer works once the step has ended";
const RUN_TOOLS_CHALLENGE = `Bearer error="invalid_token", error_description="${RUN_TOOLS_REFUSED}"`;

const bearer = (ctx: Context): string | undefined => {
  const m = /^Bearer\s+(.+)$/i.exec(ctx.get('authorization'));
  return m?.[1]?.trim();
};

// only a question waits: every other answer stays one JSON body
const asks = (body: unknown): boolean => {
  const m = body as { method?: unknown; params?: { name?: unknown } } | null;
  return typeof m === 'object' && m !== null && m.method === 'tools/call' && m.params?.name === ASK_QUESTION;
};

const handle = async (ctx: Context, backend: RunToolsBackend, runId: string, progressEveryMs: number): Promise<void> => {
  const token = bearer(ctx);
  if (!token || !backend.authorize(runId, token)) {
    // Said as the /mcp endpoint says it, so an MCP client reports an authentication problem.
    ctx.status = 401;
    ctx.set('WWW-Authenticate', RUN_TOOLS_CHALLENGE);
    ctx.body = { detail: RUN_TOOLS_REFUSED };
    return;
  }
  // the body read as on /mcp: one reader, and arguments that are not an object get the tool's answer
  const body = await readRpcBody(ctx);
  if (body === null) return;
  const bad = callWithBadArguments(body);
  if (bad) {
    ctx.body = { jsonrpc: '2.0', id: bad.id, result: bad.problem ? text(tooDeepText(bad), true) : await callTool(backend, runId, bad.name, bad.args) };
    return;
  }
  const server = serverFor(backend, runId, progressEveryMs);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !asks(body) });
  ctx.respond = false; // the transport writes the raw response
  ctx.res.on('close', () => void transport.close().then(() => server.close()));
  await server.connect(transport);
  await transport.handleRequest(ctx.req, ctx.res, body);
};

/** Mount the in-run tool server on `router` at POST /run-tools/:runId/mcp; `progressEveryMs`: how often a waiting question says it is alive. */
export const mountRunTools = (router: Router, backend: RunToolsBackend, progressEveryMs = PROGRESS_EVERY_MS): void => {
  router.post(runToolsPath, (ctx) => handle(ctx, backend, ctx.params.runId ?? '', progressEveryMs));
  // Stateless server: no SSE stream to open and no session to delete.
  const notAllowed = (ctx: Context): void => {
    ctx.status = 405;
    ctx.set('allow', 'POST');
    ctx.body = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null };
  };
  router.get(runToolsPath, notAllowed);
  router.delete(runToolsPath, notAllowed);
};
