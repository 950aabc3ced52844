import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../api.js';
import { ErrorNote } from '../ui/page.js';
import type { ChatData } from './chat-data.js';
import { said } from './entries.js';
import type { ChatEntry } from './shapes.js';
import { write } from './write.js';

// A supervisor's chat: its entries oldest first (a log region, so a screen reader hears what
// arrives), `Show earlier` to page back, and a message box. Every entry is rendered as text.

const time = (at: string): string => {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? at : d.toLocaleString();
};

const Entry = ({ e }: { readonly e: ChatEntry }) => {
  const w = said(e);
  return (
    <li class={`chat-entry k-${w.kind}`} data-seq={e.seq} data-type={e.type}>
      <div class="chat-meta"><strong>{w.who}</strong> <time class="muted" dateTime={e.at}>{time(e.at)}</time></div>
      {w.text ? <p class="chat-text">{w.text}</p> : null}
    </li>
  );
};

export const Chat = ({ id, chat, name }: { readonly id: string; readonly chat: ChatData; readonly name: string }) => {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [held, setHeld] = useState('');
  const entries = chat.entries.value;
  const key = `chat-${id}`;
  const box = useRef<HTMLDivElement>(null);
  // Newest at the bottom, like any chat: new entries keep the view at the bottom if it was there;
  // an earlier page coming in above keeps what the reader was looking at in place.
  const pin = useRef({ atBottom: true, height: 0, firstSeq: 0 });
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const first = entries[0]?.seq ?? 0;
    if (pin.current.firstSeq && first < pin.current.firstSeq) el.scrollTop += el.scrollHeight - pin.current.height;
    else if (pin.current.atBottom) el.scrollTop = el.scrollHeight;
    pin.current.height = el.scrollHeight;
    pin.current.firstSeq = first;
  }, [entries]);
  const onScroll = () => {
    const el = box.current;
    if (el) pin.current.atBottom = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
  };

  const send = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setHeld('');
    try {
      const r = await write<{ entry: ChatEntry; heldBecause: string | null }>(`supervisors/${encodeURIComponent(id)}/chat`, { body: { text } });
      chat.add(r.entry);
      setText('');
      setHeld(r.heldBecause ? `Sent. It will not answer now: ${r.heldBecause}.` : 'Sent.');
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel chat" aria-labelledby={`${key}-title`}>
      <h3 id={`${key}-title`}>Chat</h3>
      {chat.stream.value === 'retrying' ? <p class="warning" role="status">Reconnecting to the live chat…</p> : null}
      <ErrorNote error={chat.error.value} />
      {chat.before.value !== null
        ? <button type="button" class="small" disabled={chat.loading.value} onClick={() => void chat.earlier()}>Show earlier</button> : null}
      {entries.length === 0 && !chat.loading.value ? <p class="muted">Nothing said yet.</p> : null}
      <div class="chat-log" role="log" aria-label={`Chat with ${name}`} tabIndex={0} ref={box} onScroll={onScroll}>
        <ol class="plain">{entries.map((e) => <Entry key={e.seq} e={e} />)}</ol>
      </div>
      <form class="chat-send" onSubmit={send}>
        <label for={`${key}-text`}>Message to {name}</label>
        <textarea id={`${key}-text`} rows={3} required maxLength={20_000} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        <ErrorNote error={error} />
        <div class="row">
          <button type="submit" disabled={busy || text.trim() === ''}>Send</button>
          <p class="note" role="status">{held}</p>
        </div>
      </form>
    </section>
  );
};
