import { useState } from 'preact/hooks';
import type { BoardRow } from '../../data/runs-index.js';
import { api, ApiError } from '../../api.js';

// The agent's open question on its board card (issue 32): the prompt, one button per option, and a
// small box where the question takes a text answer, so a person answers in one click without
// opening the run. The answer names its question, so one already gone is refused, not misapplied;
// the push stream's next row drops the card's question once it is answered.

type Question = NonNullable<BoardRow['question']>;

export const BoardQuestion = ({ row, question }: { readonly row: BoardRow; readonly question: Question }) => {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const answer = async (value: string | readonly string[]) => {
    setBusy(true);
    setError(null);
    try {
      await api(`runs/${encodeURIComponent(row.runId)}/answers`, { body: { question: question.id, answer: value } });
    } catch (e) {
      setError(e instanceof ApiError ? e.detail : String(e));
    }
    setBusy(false);
  };
  const free = question.allowText || question.options.length === 0;
  return (
    <div class="board-question" role="group" aria-label={`The agent asks: ${question.prompt}`}>
      <p class="board-ask">{question.prompt}</p>
      <div class="board-answers">
        {question.options.map((o) => (
          <button key={o} type="button" class="small" disabled={busy} onClick={() => void answer([o])}>{o}</button>
        ))}
        {free ? (
          <form class="board-answer" onSubmit={(e) => { e.preventDefault(); if (text.trim()) void answer(text); }}>
            <input type="text" value={text} aria-label={`Your answer to: ${question.prompt}`} placeholder="Your answer"
              onInput={(e) => setText((e.target as HTMLInputElement).value)} />
            <button type="submit" class="small" disabled={busy || !text.trim()}>Send</button>
          </form>
        ) : null}
      </div>
      {error ? <p class="board-reason" role="alert">{error}</p> : null}
    </div>
  );
};
