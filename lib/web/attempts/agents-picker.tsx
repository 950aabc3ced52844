import { availabilityText, type HarnessRow } from '../components/shapes.js';

// "Try on several agents": which harnesses the goal runs on at once, each with an optional model.
// One sibling run per picked harness; the server refuses fewer than two (or the group, when one of
// them cannot start), and nothing is started then.

export interface PickedAgent { readonly harness: string; readonly model: string }

export const agentsBody = (picked: readonly PickedAgent[]) =>
  picked.map((p) => ({ harness: p.harness, ...(p.model.trim() ? { model: p.model.trim() } : {}) }));

export const AgentsPicker = ({ harnesses, picked, onChange }: {
  readonly harnesses: readonly HarnessRow[];
  readonly picked: readonly PickedAgent[];
  readonly onChange: (next: PickedAgent[]) => void;
}) => {
  const find = (name: string) => picked.find((p) => p.harness === name);
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...picked, { harness: name, model: '' }] : picked.filter((p) => p.harness !== name));
  const setModel = (name: string, model: string) => onChange(picked.map((p) => (p.harness === name ? { ...p, model } : p)));
  return (
    <fieldset class="agents-picker" aria-describedby="agents-about">
      <legend>Agents to try the goal on</legend>
      <p id="agents-about" class="muted about">Pick two or more: each runs the same goal in its own worktree, and the board shows them as one card to compare.</p>
      {harnesses.map((h) => {
        const p = find(h.name);
        const id = `nr-agent-${h.name}`;
        return (
          <div key={h.name} class="agent-pick">
            <label class="check"><input type="checkbox" id={id} checked={!!p} onChange={(e) => toggle(h.name, e.currentTarget.checked)} /> {h.name} <span class="muted">— {availabilityText(h.availability)}</span></label>
            <label class="agent-model"><span>Model<span class="sr-only"> for {h.name}</span></span>
              <input name={`model-${h.name}`} value={p?.model ?? ''} disabled={!p} placeholder={`(${h.name}'s default)`} onInput={(e) => setModel(h.name, e.currentTarget.value)} />
            </label>
          </div>
        );
      })}
      <p class="muted" aria-live="polite">{picked.length < 2 ? `${picked.length} picked: pick at least two.` : `${picked.length} attempts will start together.`}</p>
    </fieldset>
  );
};
