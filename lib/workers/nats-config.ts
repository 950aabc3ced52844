// The hub's nats-server configuration, written whole each time the set of workers changes and
// reloaded (SIGHUP). Every identity is an nkey: the hub keeps its own seed owner-only, a worker
// keeps its seed (the join token) and the hub knows only its public key, so the config file holds
// no secret. A worker may publish only on its own subjects and put only its own presence key.

export const PRESENCE_BUCKET = 'svc-presence';
// the step queue's names (lib/workers/step-queue.ts imports them from here)
export const STEP_STREAM = 'SVC_STEPS';
export const STEP_CONSUMER = 'steps';
/** the consumer of the steps pinned to one worker (a project's "Run on") */
export const pinnedConsumer = (workerId: string): string => `${STEP_CONSUMER}-${workerId}`;

export interface WorkerUser {
  readonly workerId: string;
  readonly publicKey: string;
}

export interface HubConfig {
  readonly listen: string;
  readonly storeDir: string;
  readonly hubKey: string;
  readonly workers: readonly WorkerUser[];
  /** the hub's certificate: every client connection is TLS (the server listens beyond loopback) */
  readonly tls?: { readonly certFile: string; readonly keyFile: string };
}

/** what one worker may publish and subscribe to: its own subjects, its own presence key, its own inbox */
export const workerPermissions = (workerId: string) => ({
  publish: [`svc.w.${workerId}.>`, `$KV.${PRESENCE_BUCKET}.${workerId}`, `$JS.API.STREAM.INFO.KV_${PRESENCE_BUCKET}`, '$JS.API.INFO',
    // claiming a step (lib/workers/step-queue.ts): read the shared consumer, pull from it, ack what it was given
    `$JS.API.CONSUMER.INFO.${STEP_STREAM}.${STEP_CONSUMER}`, `$JS.API.CONSUMER.MSG.NEXT.${STEP_STREAM}.${STEP_CONSUMER}`, `$JS.ACK.${STEP_STREAM}.${STEP_CONSUMER}.>`,
    // its own pinned steps, from its own consumer only
    `$JS.API.CONSUMER.INFO.${STEP_STREAM}.${pinnedConsumer(workerId)}`, `$JS.API.CONSUMER.MSG.NEXT.${STEP_STREAM}.${pinnedConsumer(workerId)}`, `$JS.ACK.${STEP_STREAM}.${pinnedConsumer(workerId)}.>`],
  // its own replies, and what the hub tells it about the steps it runs (stop, a message mid-turn)
  subscribe: [`${inboxOf(workerId)}.>`, `svc.to.${workerId}.>`],
});

/** a worker's reply subjects: its own, so no worker reads another's replies */
export const inboxOf = (workerId: string): string => `_INBOX_${workerId}`;

const list = (xs: readonly string[]): string => `[${xs.map((x) => JSON.stringify(x)).join(', ')}]`;

const workerEntry = (w: WorkerUser): string => {
  const p = workerPermissions(w.workerId);
  return `    { nkey: ${JSON.stringify(w.publicKey)}, permissions: { publish: { allow: ${list(p.publish)} }, subscribe: { allow: ${list(p.subscribe)} } } }`;
};

export const hubConfigText = (c: HubConfig): string => [
  `listen: ${JSON.stringify(c.listen)}`,
  `jetstream { store_dir: ${JSON.stringify(c.storeDir)} }`,
  ...(c.tls ? [`tls { cert_file: ${JSON.stringify(c.tls.certFile)}, key_file: ${JSON.stringify(c.tls.keyFile)}, timeout: 5 }`] : []),
  'authorization {',
  '  users = [',
  [`    { nkey: ${JSON.stringify(c.hubKey)} }`, ...c.workers.map(workerEntry)].join(',\n'),
  '  ]',
  '}',
  '',
].join('\n');
