import type { ComponentChildren } from 'preact';
import { Link } from '../ui/link.js';
import type { HereRow, MachineRun, WorkerRow } from './shapes.js';
import { LocalTime } from '../ui/local-time.js';

// One machine on the Machines page: its state, slots in use of its slots, the harnesses ready
// there, whether it can sandbox, its host, and the runs whose step it holds now (each a link).

const STATE_WORDS: Readonly<Record<WorkerRow['state'], string>> = {
  online: 'online', lost: 'lost', 'never-joined': 'never joined', revoked: 'revoked',
};

export const StateBadge = ({ state }: { readonly state: WorkerRow['state'] | 'here' }) =>
  <span class={`badge m-${state}`} data-state={state}>{state === 'here' ? 'this machine' : STATE_WORDS[state]}</span>;

const slotsText = (inUse: number | null, slots: number | null): string =>
  slots === null ? 'not announced yet' : inUse === null ? `${slots} (in use: unknown while not online)` : `${inUse} in use of ${slots}`;

const sandboxText = (s: boolean | null): string => (s === null ? 'not known yet' : s ? 'yes (bubblewrap starts there)' : 'no: steps run unsandboxed there');

const Runs = ({ runs }: { readonly runs: readonly MachineRun[] }) =>
  runs.length === 0 ? <span class="muted">none now</span> : (
    <ul class="machine-runs">
      {runs.map((r) => (
        <li key={r.runId} data-waiting={r.waitingSince ? 'yes' : undefined}>
          <Link href={`/runs/${encodeURIComponent(r.runId)}`}>{r.title}</Link> <span class="muted">at step {r.step}</span>
          {r.waitingSince ? <> <span class="muted">· waiting for this machine since <LocalTime at={r.waitingSince} /></span></> : null}
        </li>
      ))}
    </ul>
  );

const Fact = ({ label, children }: { readonly label: string; readonly children: ComponentChildren }) => (
  <div><dt>{label}</dt><dd>{children}</dd></div>
);

export interface CardProps {
  readonly id: string;
  readonly title: string;
  readonly state: WorkerRow['state'] | 'here';
  readonly row: Pick<HereRow, 'harnesses' | 'sandbox' | 'runs'> & { readonly host: string | null; readonly slots: number | null; readonly slotsInUse: number | null };
  readonly children?: ComponentChildren;
}

export const MachineCard = ({ id, title, state, row, children }: CardProps) => (
  <section class="panel machine" aria-labelledby={`${id}-title`} data-machine={id}>
    <div class="row">
      <h2 id={`${id}-title`} class="card-title grow">{title}</h2>
      <StateBadge state={state} />
    </div>
    <dl class="machine-facts">
      <Fact label="Slots">{slotsText(row.slotsInUse, row.slots)}</Fact>
      <Fact label="Harnesses">{row.harnesses.length ? row.harnesses.join(', ') : <span class="muted">none ready</span>}</Fact>
      <Fact label="Sandbox">{sandboxText(row.sandbox)}</Fact>
      <Fact label="Host">{row.host ?? <span class="muted">not announced yet</span>}</Fact>
      <Fact label="Runs now"><Runs runs={row.runs} /></Fact>
    </dl>
    {children}
  </section>
);
