import type { Socket } from 'node:net';

// Who is calling, for the record (change_setting's source, actions' actor). The endpoint is
// stateless, so the clientInfo an agent sent in `initialize` is gone by its next request; a client
// keeps its HTTP connection alive, so we remember the name per socket and fall back to the
// User-Agent's product token (e.g. "claude-code/2.1" -> "claude-code").

const names = new WeakMap<Socket, string>();

export const rememberClient = (socket: Socket, name: string | undefined): void => {
  if (name && name.trim()) names.set(socket, name.trim().slice(0, 100));
};

const productOf = (userAgent: string | undefined): string | undefined => {
  const first = userAgent?.trim().split(/\s+/)[0];
  const product = first?.split('/')[0];
  return product ? product.slice(0, 100) : undefined;
};

export const clientName = (socket: Socket, userAgent: string | undefined): string | undefined => names.get(socket) ?? productOf(userAgent);
