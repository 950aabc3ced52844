import type { Socket } from 'node:net';

// Who is calling, for the record (change_setting's source, actions' actor). The endpoint is
// stateless, so the clientInfo an agent sent in `initialize` is gone by its next request. We
// remember it per socket (a client keeps its connection alive), and per User-Agent while only one
// client name has been seen with that User-Agent (a client that opens more sockets keeps its
// name; two clients sharing a User-Agent are never confused). Last resort: the User-Agent's
// product token ("claude-code/2.1" -> "claude-code").

const bySocket = new WeakMap<Socket, string>();
const byAgent = new Map<string, Set<string>>();
const MAX_AGENTS = 100;

export const rememberClient = (socket: Socket, userAgent: string | undefined, name: string | undefined): void => {
  const clean = name?.trim().slice(0, 100);
  if (!clean) return;
  bySocket.set(socket, clean);
  if (!userAgent) return;
  if (!byAgent.has(userAgent) && byAgent.size >= MAX_AGENTS) byAgent.delete(byAgent.keys().next().value as string);
  byAgent.set(userAgent, (byAgent.get(userAgent) ?? new Set<string>()).add(clean));
};

const productOf = (userAgent: string | undefined): string | undefined => {
  const product = userAgent?.trim().split(/\s+/)[0]?.split('/')[0];
  return product ? product.slice(0, 100) : undefined;
};

const onlyNameFor = (userAgent: string | undefined): string | undefined => {
  const names = userAgent ? byAgent.get(userAgent) : undefined;
  return names && names.size === 1 ? [...names][0] : undefined;
};

export const clientName = (socket: Socket, userAgent: string | undefined): string | undefined =>
  bySocket.get(socket) ?? onlyNameFor(userAgent) ?? productOf(userAgent);
