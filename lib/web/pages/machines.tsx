import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { useLoad } from '../components/use-load.js';
import { AddMachine } from '../machines/add-machine.js';
import { MachineCard } from '../machines/machine-card.js';
import type { Machines, WorkerRow } from '../machines/shapes.js';
import { LocalTime } from '../ui/local-time.js';
import type { PageProps } from '../page-props.js';
import { ConfirmButton } from '../run/confirm.js';
import { ErrorNote, Loading, PageHeading } from '../ui/page.js';

// The machines that run agent steps (docs/workers.md): this one, and each worker that joined it,
// online or lost (or never joined, or revoked), with its slots, harnesses, sandbox, host and the
// runs it holds now. "Add a machine" makes a join command (shown once); a worker can be revoked
// after a confirmation. Presence changes by itself, so the list is read again every few seconds.

const POLL_MS = 5000;

const Revoke = ({ w, onDone }: { readonly w: WorkerRow; readonly onDone: (note: string) => void }) => {
  const [busy, setBusy] = useState(false);
  return (
    <ConfirmButton label="Revoke" ariaLabel={`Revoke ${w.name}`} disabled={busy} yes="Revoke it" no="Keep it"
      question={`Revoke ${w.name}? Its connection closes at once, it cannot join again with its token, and anything it sends is refused. A new join needs a new token.`}
      onConfirm={() => void (async () => {
        setBusy(true);
        try {
          await api(`workers/${encodeURIComponent(w.workerId)}/revoke`, { body: {} });
          onDone(`${w.name} was revoked.`);
        } catch (e) {
          onDone(e instanceof ApiError ? e.detail : String(e));
        }
        setBusy(false);
      })()} />
  );
};

export const Page = (_: PageProps) => {
  const machines = useLoad(() => api<Machines>('workers'), []);
  const [adding, setAdding] = useState(false);
  const [note, setNote] = useState('');
  // the next read starts once the last one answered: a slow answer is never overtaken (and dropped) by the next
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      await machines.reload();
      if (live) timer = setTimeout(() => void tick(), POLL_MS);
    };
    timer = setTimeout(() => void tick(), POLL_MS);
    return () => { live = false; clearTimeout(timer); };
  }, [machines.reload]);
  const m = machines.data;
  const workers = m?.workers ?? [];
  return (
    <section aria-labelledby="page-title">
      <PageHeading title="Machines" />
      <p class="muted about">The machines that run agent steps: this one, and the workers that joined it (docs/second-machine.md).</p>
      <ErrorNote error={machines.error} />
      {!m ? <Loading what="machines" /> : (
        <>
          {m.hubDownSince ? (
            <p class="warning" role="status" title={m.hubProblem}>
              The hub lost its connection to NATS at <LocalTime at={m.hubDownSince} /> and is reconnecting: each machine's state is as last seen, and steps reach workers again once it is back.
            </p>
          ) : null}
          {workers.length === 0 && !adding ? <p data-empty="">No other machine has joined yet: add one, and agent steps can run there as well as here.</p> : null}
          <AddMachine open={adding} onOpen={setAdding} onMade={() => void machines.reload()} />
          <p class="note" role="status">{note}</p>
          <MachineCard id="here" title={`This machine (${m.here.host})`} state="here" row={m.here} />
          {workers.map((w) => (
            <MachineCard key={w.workerId} id={w.workerId} title={w.name} state={w.state} row={w}>
              <p class="muted">Worker id <code>{w.workerId}</code></p>
              {w.state === 'revoked' ? null : <Revoke w={w} onDone={(text) => { setNote(text); void machines.reload(); }} />}
            </MachineCard>
          ))}
        </>
      )}
    </section>
  );
};
