import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { navigate } from '../router.js';
import { ErrorNote, Loading } from '../ui/page.js';
import { PersonaForm } from './persona-form.js';
import { partsOf, type PersonaView } from './persona-shapes.js';
import { SourceView } from './source-view.js';
import { useLoad } from './use-load.js';
import { useSave } from './use-save.js';

// One persona (`/personas/<name>`): its origin, description, settings, why it does not load, the
// prompt the agent is given and the file text, all as text. A custom one is edited and deleted
// here; any other is copied with Customize into a custom one of the same name, which takes its
// place. Deleting a custom persona that stood in front of another shows that one again.

const enc = encodeURIComponent;

const Setting = ({ label, value }: { readonly label: string; readonly value: string | null }) => (
  <li class="row"><span class="muted">{label}</span> {value ?? <span class="muted">not set</span>}</li>
);

export const PersonaDetail = ({ name, project }: { readonly name: string; readonly project: string | undefined }) => {
  const q = project ? `?project=${enc(project)}` : '';
  const read = useLoad(() => api<PersonaView>(`personas/${enc(name)}${q}`), [name, q]);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState('');
  const remove = useSave();
  const p = read.data;
  const custom = p?.origin === 'custom';
  // A button that opens or closes a part goes away with it: focus then moves to what replaced it
  // (by id, once that has rendered), so the keyboard never falls back to the top of the page.
  const focusNext = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });
  const edit = (on: boolean) => { focusNext.current = on ? 'pe-description' : 'persona-edit'; setEditing(on); };
  const confirm = (on: boolean) => { focusNext.current = on ? 'persona-keep' : 'persona-delete'; setConfirming(on); };

  const del = () => remove.run(async () => {
    await api(`personas/${enc(name)}`, { method: 'DELETE' });
    setConfirming(false);
    const behind = await api<PersonaView>(`personas/${enc(name)}${q}`).catch(() => null);
    if (!behind) return navigate(`/personas${q}`);
    read.set(behind);
    setNote(`Custom persona deleted. This is the ${behind.origin} persona ${name} it stood in front of.`);
  }, '');

  if (!p) return read.error ? <ErrorNote error={read.error} /> : <Loading what="the persona" />;
  return (
    <>
      <div class="row">
        <span class="badge">{p.origin}</span>
        {!p.loads && <span class="badge warning">does not load</span>}
      </div>
      {p.description && <p class="about">{p.description}</p>}
      <p class="note" role="status">{note}</p>
      {editing ? (
        <section class="panel" aria-labelledby="persona-edit-h">
          <h2 id="persona-edit-h" class="card-title">{custom ? `Edit ${name}` : `Customize ${name}`}</h2>
          <PersonaForm name={name} initial={partsOf(p)} onCancel={() => edit(false)}
            onSaved={(saved) => { edit(false); read.set(saved); setNote(custom ? 'Saved.' : `Saved as a custom persona: it now takes the place of the ${p.origin} one.`); }} />
        </section>
      ) : (
        <div class="row">
          <button type="button" id="persona-edit" onClick={() => { setNote(''); edit(true); }} aria-describedby={custom ? undefined : 'customize-about'}>{custom ? 'Edit' : 'Customize'}</button>
          {custom && !confirming && <button type="button" id="persona-delete" class="danger" onClick={() => confirm(true)}>Delete</button>}
        </div>
      )}
      {!custom && !editing && <p id="customize-about" class="muted about">Customize saves a copy as a custom persona named {name}, which takes this one's place until it is deleted.</p>}
      {confirming && (
        <div class="panel" role="group" aria-label="Confirm deletion">
          <p>Delete the custom persona {name}? This cannot be undone; steps that name it use the next persona of that name, if any.</p>
          <div class="row">
            <button type="button" class="danger" disabled={remove.busy} onClick={() => void del()}>Delete for good</button>
            <button type="button" id="persona-keep" onClick={() => confirm(false)}>Keep it</button>
          </div>
        </div>
      )}
      <ErrorNote error={remove.error} />
      <h2 id="persona-settings">Settings</h2>
      <ul class="plain" aria-labelledby="persona-settings">
        <Setting label="Harness" value={p.harness} />
        <Setting label="Model" value={p.model} />
        <Setting label="Tools" value={p.tools} />
      </ul>
      {p.problems.length > 0 && (
        <>
          <h2 id="persona-problems">Why it does not load</h2>
          <ul class="plain error" aria-labelledby="persona-problems">{p.problems.map((m, i) => <li key={i}>{m}</li>)}</ul>
        </>
      )}
      <h2 id="persona-prompt">Prompt</h2>
      {p.prompt === null ? <p class="muted">None: the persona does not load.</p> : <pre class="line" data-prompt>{p.prompt}</pre>}
      <h2 id="persona-file">Persona file</h2>
      <SourceView source={p.source} pinned={[]} label="Persona file" />
    </>
  );
};
