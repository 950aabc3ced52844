// The small pieces History's sentences are made of (history-words.ts): an event's data is read as
// it came (the journal decoded it on the server), each field looked at for the type it should be,
// so a field missing or of another shape leaves a plainer sentence, never a crash.

export type Data = Readonly<Record<string, unknown>>;
/** the run title for a run id the detail names (linked), else the id */
export type TitleOf = (runId: string) => string;
export type Words = (d: Data, titleOf: TitleOf) => string;

export const str = (d: Data, k: string): string | undefined => (typeof d[k] === 'string' ? (d[k] as string) : undefined);
export const num = (d: Data, k: string): number | undefined => (typeof d[k] === 'number' ? (d[k] as number) : undefined);
export const list = (d: Data, k: string): readonly unknown[] => (Array.isArray(d[k]) ? (d[k] as unknown[]) : []);
export const obj = (d: Data, k: string): Data => (d[k] && typeof d[k] === 'object' ? (d[k] as Data) : {});

/** a long text (an agent's reply, a summary) cut to a line's worth */
export const short = (s: string | undefined, max = 200): string => {
  const one = (s ?? '').replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max)}…` : one;
};

/** ": <text>" when there is any, for the end of a sentence */
export const colon = (s: string | undefined): string => (s && s.trim() ? `: ${short(s)}` : '');

/** who did it, from the event's `by` */
export const who = (d: Data): string => {
  const by = obj(d, 'by');
  const name = str(by, 'name');
  switch (by['kind']) {
    case 'person': return name ?? 'A person';
    case 'agent': return name ? `Agent ${name}` : 'An outside agent';
    case 'supervisor': return name ? `Supervisor ${name}` : 'The supervisor';
    case 'engine': return 'svc';
    default: return name ?? 'Someone';
  }
};

/** "Someone did X" with the reason they gave, if any */
export const by = (verb: string): Words => (d) => `${who(d)} ${verb}${colon(str(d, 'reason'))}.`;

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export const prNumber = (d: Data): string => {
  const n = num(obj(d, 'pullRequest'), 'number');
  return n === undefined ? 'the pull request' : `pull request #${n}`;
};

export const dollars = (usd: number): string => `$${usd < 0.01 && usd > 0 ? usd.toFixed(4) : usd.toFixed(2)}`;
