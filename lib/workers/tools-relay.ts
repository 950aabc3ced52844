import type { TurnInput } from '../harness/adapter.js';

// The run-tools relay (docs/workers.md): the agent on a worker cannot reach the hub's loopback
// HTTP, so the worker serves the endpoint locally and relays each call over NATS; the hub makes
// the same call on its own run-tools endpoint, with the step's own token, which never leaves it.

export interface RelayedAnswer {
  readonly status: number;
  readonly type: string;
  readonly body: string;
}

/** hub: one MCP call on the step's own run-tools endpoint, its answer whole */
export const relayToolsCall = async (runTools: TurnInput['runTools'], body: string): Promise<RelayedAnswer> => {
  const res = await fetch(runTools.url, {
    method: 'POST', body,
    headers: { authorization: `Bearer ${runTools.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  });
  return { status: res.status, type: res.headers.get('content-type') ?? 'application/json', body: await res.text() };
};
