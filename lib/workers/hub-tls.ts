import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions, type PeerCertificate } from 'node:tls';
import type { TlsOptions } from '@nats-io/transport-node';
import { join } from 'node:path';
import { ensurePrivateDir } from '../paths.js';
import { writePrivateFile } from '../private-file.js';

// TLS between the hub and its workers when the hub's NATS listens beyond loopback (docs/workers.md,
// Security). There is no certificate authority to lean on between a user's own machines, so the
// hub makes its own certificate once (owner-only under ~/.svc/nats/tls) and the join line names its
// SHA-256 fingerprint: `tls://HOST:PORT#sha256=<hex>`. A worker trusts exactly that certificate,
// whatever name or address it reached the hub by, and checks it before it sends its credentials.

export interface HubCert {
  readonly certFile: string;
  readonly keyFile: string;
  readonly pem: string;
  /** SHA-256 of the certificate's DER, lowercase hex */
  readonly fingerprint: string;
}

export const isLoopbackHost = (host: string): boolean =>
  host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

const fingerprintOfDer = (der: Buffer): string => createHash('sha256').update(der).digest('hex');

/** the hub's certificate, made on first need with openssl (an EC P-256 key, ten years) */
export const ensureHubCert = (natsDir: string): HubCert => {
  const dir = ensurePrivateDir(join(natsDir, 'tls'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  if (!existsSync(certFile) || !existsSync(keyFile)) {
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '3650',
        '-subj', '/CN=svc hub', '-keyout', keyFile, '-out', certFile], { stdio: 'pipe' });
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'openssl is not on PATH (Debian: sudo apt-get install openssl)' : String((e as { stderr?: Buffer }).stderr ?? e);
      throw new Error(`the hub listens beyond loopback, so its connections are TLS, and making its certificate failed: ${why}`);
    }
    // openssl writes with the umask: the key is the hub's secret
    writePrivateFile(keyFile, readFileSync(keyFile, 'utf8'));
    writePrivateFile(certFile, readFileSync(certFile, 'utf8'));
  }
  const pem = readFileSync(certFile, 'utf8');
  return { certFile, keyFile, pem, fingerprint: fingerprintOfDer(new X509Certificate(pem).raw) };
};

/**
 * nats.js `tls` options that trust exactly the certificate with this fingerprint, by any name
 * (nats.js hands its `tls` options whole to node's tls.connect, checkServerIdentity included)
 */
export const pinnedTls = (pem: string, fingerprint: string): TlsOptions & { readonly rejectUnauthorized?: boolean } & Pick<ConnectionOptions, 'checkServerIdentity'> => ({
  ca: pem,
  checkServerIdentity: (_host: string, cert: PeerCertificate) =>
    (fingerprintOfDer(cert.raw) === fingerprint ? undefined : new Error('the hub\'s certificate is not the one the join line names')),
});

export const joinUrlOf = (host: string, port: number, fingerprint: string): string => `tls://${host}:${port}#sha256=${fingerprint}`;

export interface JoinUrl {
  readonly host: string;
  readonly port: number;
  /** the certificate's fingerprint the join line named: TLS, pinned */
  readonly pin?: string;
}

/** `nats://HOST:PORT` (loopback or the user's own NATS) or `tls://HOST:PORT#sha256=<hex>` */
export const parseJoinUrl = (raw: string): JoinUrl | string => {
  const m = /^(nats|tls):\/\/(\[[0-9a-f:]+\]|[A-Za-z0-9.-]+):(\d{1,5})(?:#sha256=([0-9a-f]{64}))?$/.exec(raw.trim());
  if (!m) return 'the hub\'s address looks like tls://HOST:PORT#sha256=… or nats://HOST:PORT (as `svc worker token` printed it)';
  if (m[1] === 'tls' && !m[4]) return 'a tls:// address needs the hub\'s certificate fingerprint (#sha256=…), as `svc worker token` printed it';
  return { host: m[2]!, port: Number(m[3]), ...(m[4] ? { pin: m[4] } : {}) };
};

/**
 * the hub's certificate, read off the wire and checked against the pin before anything is sent:
 * NATS says INFO in the clear, then the client starts TLS on the same connection
 */
export const fetchPinnedCert = (host: string, port: number, pin: string, timeoutMs = 10_000): Promise<string> => new Promise((resolve, reject) => {
  const raw = netConnect({ host: host.replace(/^\[|\]$/g, ''), port });
  const timer = setTimeout(() => { raw.destroy(); reject(new Error(`no answer from the hub at ${host}:${port}`)); }, timeoutMs);
  const fail = (e: Error) => { clearTimeout(timer); raw.destroy(); reject(e); };
  raw.once('error', fail);
  let seen = '';
  const onData = (d: Buffer) => {
    seen += d.toString('latin1');
    if (!seen.includes('\r\n')) return;
    raw.off('data', onData);
    if (!seen.includes('"tls_required":true')) return fail(new Error('the hub does not speak TLS at this address, yet the join line names a certificate'));
    const secure = tlsConnect({ socket: raw, rejectUnauthorized: false }, () => {
      const der = secure.getPeerCertificate().raw;
      secure.destroy();
      clearTimeout(timer);
      if (fingerprintOfDer(der) !== pin) return reject(new Error('the hub\'s certificate is not the one the join line names: refusing to send credentials'));
      resolve(new X509Certificate(der).toString());
    });
    secure.once('error', fail);
  };
  raw.on('data', onData);
});
