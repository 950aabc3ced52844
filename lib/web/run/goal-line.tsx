import { useState } from 'preact/hooks';

// The run's goal in the header as one line; a long goal (several lines, or more than fits) opens
// in place with "more", so the tabs and the content start on the first screen.

const LONG = 110;

export const GoalLine = ({ goal }: { readonly goal: string }) => {
  const [open, setOpen] = useState(false);
  const long = goal.includes('\n') || goal.length > LONG;
  return (
    <div class={`run-goal${open ? ' open' : ''}`}>
      <h2 class="goal-label">Goal</h2>
      <p class="goal" id="run-goal-text">{goal}</p>
      {long ? <button type="button" class="linkish goal-more" aria-expanded={open} aria-controls="run-goal-text" onClick={() => setOpen(!open)}>{open ? 'less' : 'more'}</button> : null}
    </div>
  );
};
