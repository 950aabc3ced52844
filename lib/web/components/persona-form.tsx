import { api } from '../api.js';
import { ErrorNote } from '../ui/page.js';
import { Field } from './field.js';
import { PERSONA_HARNESSES, PERSONA_TOOLS, type PersonaParts, type PersonaView } from './persona-shapes.js';
import { useSave } from './use-save.js';

// Writing a custom persona: its name (for a new one), prompt, description, harness, model and
// tools, sent as parts with PUT /api/personas/{name}. The server checks the name and every part;
// its refusal is shown next to the form as it is, and the form keeps what was typed. An empty
// part leaves that setting to the step, the workflow or the settings. The controls are not
// controlled (read with FormData on submit); a select starts from its options' `selected`, since
// Preact gives a select no `defaultValue`.

const enc = encodeURIComponent;
const text = (f: FormData, k: string) => String(f.get(k) ?? '').trim();

export interface PersonaFormProps {
  /** fixed for an existing persona; null: a new one, named in the form */
  readonly name: string | null;
  readonly initial: PersonaParts;
  readonly onSaved: (p: PersonaView) => void;
  readonly onCancel?: () => void;
}

export const PersonaForm = ({ name, initial, onSaved, onCancel }: PersonaFormProps) => {
  const save = useSave();
  const id = name === null ? 'pn' : 'pe';

  const submit = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const target = name ?? text(f, 'name');
    const body = { prompt: String(f.get('prompt') ?? ''), description: text(f, 'description'), harness: text(f, 'harness'), model: text(f, 'model'), tools: text(f, 'tools') };
    const ok = await save.run(async () => onSaved(await api<PersonaView>(`personas/${enc(target)}`, { method: 'PUT', body })), `Persona ${target} saved.`);
    if (ok && name === null) form.reset();
  };

  return (
    <form class="stack" onSubmit={submit} aria-label={name === null ? 'New persona' : `Edit ${name}`}>
      {name === null && (
        <Field id={`${id}-name`} label="Name" hint={<p id={`${id}-name-hint`} class="muted about">a-z, 0-9, _ and -, starting with a letter or digit; a workflow step names it with persona=NAME.</p>}>
          <input id={`${id}-name`} name="name" required autoComplete="off" placeholder="my-persona" aria-describedby={`${id}-name-hint`} />
        </Field>
      )}
      <Field id={`${id}-description`} label="Description (optional)" hint={<p id={`${id}-description-hint`} class="muted about">One line, shown to people, never to the agent.</p>}>
        <input id={`${id}-description`} name="description" defaultValue={initial.description} aria-describedby={`${id}-description-hint`} />
      </Field>
      <div class="two">
        <Field id={`${id}-harness`} label="Harness">
          <select id={`${id}-harness`} name="harness">
            <option value="">Not set</option>
            {PERSONA_HARNESSES.map((h) => <option key={h} value={h} selected={initial.harness === h}>{h}</option>)}
          </select>
        </Field>
        <Field id={`${id}-tools`} label="Tools">
          <select id={`${id}-tools`} name="tools">
            <option value="">Not set</option>
            {PERSONA_TOOLS.map((t) => <option key={t} value={t} selected={initial.tools === t}>{t}</option>)}
          </select>
        </Field>
      </div>
      <Field id={`${id}-model`} label="Model (optional)" hint={<p id={`${id}-model-hint`} class="muted about">Passed to the harness as written. Whatever is not set here is left to the step, the workflow or the settings.</p>}>
        <input id={`${id}-model`} name="model" defaultValue={initial.model} autoComplete="off" aria-describedby={`${id}-model-hint`} />
      </Field>
      <Field id={`${id}-prompt`} label="Prompt">
        <textarea id={`${id}-prompt`} name="prompt" rows={8} required defaultValue={initial.prompt} />
      </Field>
      <ErrorNote error={save.error} />
      <p class="note" role="status">{save.done}</p>
      <div class="row">
        <button type="submit" disabled={save.busy}>{name === null ? 'Create persona' : 'Save persona'}</button>
        {onCancel && <button type="button" onClick={onCancel}>Cancel</button>}
      </div>
    </form>
  );
};
