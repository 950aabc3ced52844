import { useCallback } from 'preact/hooks';
import { api } from '../api.js';
import { useLoad } from '../components/use-load.js';
import { Approvals } from './approvals.js';
import { Chat } from './chat.js';
import { useChat } from './chat-data.js';
import { touchesCards, touchesView } from './entries.js';
import { KeyPanel } from './key.js';
import { SettingsForm } from './settings-form.js';
import type { ApprovalCard, ChatEntry, SupervisorView } from './shapes.js';

// One supervisor: what holds it back and today's spend, its approval cards, its chat (live), its
// settings and its key. The chat's stream is the page's one push stream for it: a card asked or
// decided reloads the cards, a turn's end or a held wake reloads the supervisor (spend, state).

const usd = (n: number): string => `$${n.toFixed(2)}`;

export const SupervisorDetail = ({ view, name, harnesses, onView }: {
  readonly view: SupervisorView;
  readonly name: string;
  readonly harnesses: readonly string[];
  readonly onView: (v: SupervisorView) => void;
}) => {
  const enc = encodeURIComponent(view.id);
  const cards = useLoad(() => api<{ approvals: ApprovalCard[] }>(`supervisors/${enc}/approvals`).then((r) => r.approvals), [view.id]);
  const reloadView = useCallback(async () => {
    try { onView(await api<SupervisorView>(`supervisors/${enc}`)); } catch { /* the list shows the last known state */ }
  }, [view.id, onView]);
  const chat = useChat(view.id, (more: readonly ChatEntry[]) => {
    if (more.length === 0 || more.some(touchesCards)) void cards.reload();
    if (more.length === 0 || more.some(touchesView)) void reloadView();
  });
  const decided = (c: ApprovalCard) => cards.set((cards.data ?? []).map((x) => (x.card === c.card ? c : x)));

  return (
    <section aria-labelledby={`sup-${view.id}-title`} data-supervisor={view.id}>
      <h2 id={`sup-${view.id}-title`} class="card-title">{name}</h2>
      <div class="facts">
        <span>{!view.enabled ? 'Switched off' : view.pausedUntil ? `Paused until ${new Date(view.pausedUntil).toLocaleString()}` : 'Switched on'}</span>
        <span data-spent-today={view.spentTodayUsd}>Spent today: {usd(view.spentTodayUsd)} of {usd(view.dailyLimitUsd)}</span>
        <span>Its runs at work: {view.runsAtWork} of {view.runCap}</span>
      </div>
      {view.heldBecause ? <p class="warning">Not acting now: {view.heldBecause}.</p> : null}
      <div class="sup-grid">
        <div>
          <Approvals id={view.id} cards={cards.data} error={cards.error} onDecided={decided} />
          <Chat id={view.id} chat={chat} name={name} />
          <KeyPanel view={view} onChange={onView} />
        </div>
        <div>
          <SettingsForm key={view.id} view={view} harnesses={harnesses} onSaved={onView} />
        </div>
      </div>
    </section>
  );
};
