import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';

// Change harness: the ready harnesses other than the one the step in flight uses, none chosen at
// first. A running run switches on one click of the button, so the person picks first and the
// button stays off until they have: the switch is always a choice, never a default.

interface Harness { readonly name: string; readonly availability?: { readonly _tag: string; readonly detail?: string } }

const useReadyHarnesses = (): readonly Harness[] | null => {
  const [list, setList] = useState<readonly Harness[] | null>(null);
  useEffect(() => {
    let live = true;
    api<{ harnesses: Harness[] }>('harnesses').then((r) => { if (live) setList(r.harnesses.filter((h) => h.availability?._tag === 'Ready')); }, () => { if (live) setList([]); });
    return () => { live = false; };
  }, []);
  return list;
};

export const HarnessForm = ({ current, busy, onChange }: {
  /** the harness of the step in flight: no choice (an ended run has none in flight) */
  readonly current: string | undefined;
  readonly busy: boolean;
  readonly onChange: (harness: string) => Promise<void>;
}) => {
  const harnesses = useReadyHarnesses();
  const [choice, setChoice] = useState('');
  const others = (harnesses ?? []).filter((h) => h.name !== current);
  const placeholder = harnesses === null ? 'checking…' : others.length === 0 ? 'no other harness is ready' : 'choose a harness';
  return (
    <form class="row inline-form" onSubmit={(e) => { e.preventDefault(); if (choice) void onChange(choice).then(() => setChoice('')); }}>
      <label class="inline">Harness
        <select value={choice} onChange={(e) => setChoice((e.target as HTMLSelectElement).value)} disabled={!others.length}>
          <option value="">{placeholder}</option>
          {others.map((h) => <option key={h.name} value={h.name}>{h.name}</option>)}
        </select>
      </label>
      <button type="submit" disabled={busy || !choice}>{choice ? `Change harness to ${choice}` : 'Change harness'}</button>
    </form>
  );
};
