import { useState } from 'preact/hooks';
import type { RunDetail } from '../../../projections/run-shapes.js';
import { api, ApiError } from '../api.js';
import { NoteLine, type Note } from './controls.js';
import type { RunData } from './data.js';

// The agent's open question: one button per option, and a text answer where the question allows
// one. The answer names the question it answers, so an answer to a question already gone is refused
// rather than given to the next one.

interface AnswerReply { readonly run: RunDetail; readonly delivered: boolean; readonly detail: string | null }

export const Question = ({ data, run }: { readonly data: RunData; readonly run: RunDetail }) => {
  const q = run.question;
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note>(null);
  if (!q) return null;
  const answer = async (value: string | readonly string[]) => {
    setBusy(true);
    setNote(null);
    try {
      const r = await api<AnswerReply>(`runs/${encodeURIComponent(run.id)}/answers`, { body: { question: q.id, answer: value } });
      data.accept(r.run);
      setText('');
      setNote({ kind: 'ok', text: r.delivered ? 'Answer sent.' : `Answer recorded${r.detail ? `: ${r.detail}` : '.'}` });
    } catch (e) {
      setNote({ kind: 'error', text: e instanceof ApiError ? e.detail : String(e) });
      await data.refresh();
    }
    setBusy(false);
  };
  return (
    <section class="panel question" aria-labelledby="question-title">
      <h2 id="question-title">The agent asks</h2>
      <p class="prose">{q.prompt}</p>
      {q.options.length ? (
        <div class="row" role="group" aria-label="Answer with an option">
          {q.options.map((o) => <button key={o} type="button" disabled={busy} onClick={() => void answer([o])}>{o}</button>)}
        </div>
      ) : null}
      {q.allowText || q.options.length === 0 ? (
        <form onSubmit={(e) => { e.preventDefault(); if (text.trim()) void answer(text); }}>
          <label>Your answer
            <textarea rows={3} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
          </label>
          <button type="submit" disabled={busy || !text.trim()}>Send answer</button>
        </form>
      ) : null}
      <NoteLine note={note} />
    </section>
  );
};
