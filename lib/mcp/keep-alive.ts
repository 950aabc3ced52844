// A call that waits for a person (ask_question) says it is still alive: every CLI sends a
// progressToken with tools/call, and an MCP progress notification on the call's own response
// stream resets the client's no-progress limit (claude stops a silent call after 300 s by
// default). The notifications carry no progress to show, only that the call still stands.
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** how often a waiting call is said to be alive; well under claude's 30 s check of its 300 s limit */
export const PROGRESS_EVERY_MS = 15_000;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Sends a progress notification every `everyMs` until `work` settles, if the client asked for progress. */
export const keepAlive = async <T>(extra: Extra, everyMs: number, work: Promise<T>): Promise<T> => {
  const token = extra._meta?.progressToken;
  if (token === undefined) return work;
  let progress = 0;
  const tick = setInterval(() => {
    progress += 1;
    extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message: 'waiting for a person to answer' } }).catch(() => undefined);
  }, everyMs);
  try {
    return await work;
  } finally {
    clearInterval(tick);
  }
};
