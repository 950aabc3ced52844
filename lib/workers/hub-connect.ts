import { connect, type ConnectionOptions, type NatsConnection } from '@nats-io/transport-node';
import { fetchPinnedCert, parseJoinUrl, pinnedTls } from './hub-tls.js';

// A worker's connection to the hub by the join line's address (lib/workers/hub-tls.ts): with a
// certificate fingerprint, TLS that trusts exactly that certificate, checked before the worker's
// key signs anything; without one, plain (loopback, or the user's own NATS at SVC_NATS_URL).

export const connectToHub = async (url: string, options: Omit<ConnectionOptions, 'servers' | 'tls'>): Promise<NatsConnection> => {
  const at = parseJoinUrl(url);
  if (typeof at === 'string') throw new Error(at);
  const servers = `${at.host}:${at.port}`;
  if (!at.pin) {
    try {
      return await connect({ ...options, servers });
    } catch (e) {
      throw /tls|certificate/i.test(String(e)) ? new Error('the hub requires TLS here: join with the address `svc worker token` printed (tls://…#sha256=…)') : e;
    }
  }
  const pem = await fetchPinnedCert(at.host, at.port, at.pin);
  return connect({ ...options, servers, tls: pinnedTls(pem, at.pin) });
};
