import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { HistoryEvent } from '../../read-models/pages.js';
import type { LogLine } from '../../state/log-store.js';
import type { Feed, FeedState, RunData } from './data.js';
import { ForkButton, forkableAt } from './fork.js';
import { LocalTime } from '../ui/local-time.js';
import { eventLabel, historyWords } from './history-words.js';

// The log and the history (the thread is thread.tsx): oldest first, new rows appended as the push stream brings
// them, and a button for the page before the oldest row held. All of it is text.

const Earlier = ({ data, feed, state }: { readonly data: RunData; readonly feed: Feed; readonly state: FeedState<unknown> }) =>
  state.before.value !== null
    ? <button type="button" class="earlier" disabled={state.loading.value} onClick={() => void data.earlier(feed)}>{state.loading.value ? 'Loading…' : 'Show earlier'}</button>
    : null;

const Empty = ({ children }: { readonly children: ComponentChildren }) => <p class="muted">{children}</p>;

export const Log = ({ data }: { readonly data: RunData }) => {
  const lines = data.log.items.value;
  return (
    <div>
      <Earlier data={data} feed="log" state={data.log} />
      {lines.length === 0 ? <Empty>No log lines yet.</Empty> : (
        <ol class="log" aria-label="Log">
          {lines.map((l: LogLine) => (
            <li key={l.n} class={`l-${l.source}`}><LocalTime at={l.at} class="muted" /> <span class="muted">{l.source}</span> <span class="line">{l.text}</span></li>
          ))}
        </ol>
      )}
    </div>
  );
};

const dataText = (d: unknown): string => {
  if (d === undefined) return '';
  const s = JSON.stringify(d);
  return s.length > 600 ? `${s.slice(0, 600)}…` : s;
};

const forkAt = (data: RunData, seq: number) => {
  const run = data.run.value;
  const end = forkableAt(run, { at: seq });
  return run && end ? <> <ForkButton run={run} end={end} /></> : null;
};

// The event as it is stored: its sequence number, type and data (for those who want the raw form)
const RawEvent = ({ e }: { readonly e: HistoryEvent }) => (
  <>
    <span class="muted">#{e.seq}</span> <strong>{eventLabel(e.type)}</strong> <span class="muted type">{e.type}</span>
    {e.data !== undefined ? <code class="data">{dataText(e.data)}</code> : null}
  </>
);

// History in words (history-words.ts); "Show raw events" shows each event as stored instead
export const History = ({ data }: { readonly data: RunData }) => {
  const events = data.history.items.value;
  const [raw, setRaw] = useState(false);
  const titleOf = (id: string) => data.run.value?.linked?.[id]?.title ?? id;
  return (
    <div>
      <div class="history-bar">
        <Earlier data={data} feed="history" state={data.history} />
        {events.length ? <button type="button" class="small" aria-pressed={raw} onClick={() => setRaw(!raw)}>Show raw events</button> : null}
      </div>
      {events.length === 0 ? <Empty>No events yet.</Empty> : (
        <ol class={`history${raw ? ' raw' : ''}`} aria-label="History">
          {events.map((e: HistoryEvent) => (
            <li key={e.seq}>
              <LocalTime at={e.at} class="muted" /> {raw ? <RawEvent e={e} /> : <span class="words">{historyWords(e, titleOf)}</span>}
              {e.detail ? <span class="error"> {e.detail}</span> : null}
              {forkAt(data, e.seq)}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
};
