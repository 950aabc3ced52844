import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

// A button whose act cannot be undone asks first, as deleting a workflow or persona does: the
// question opens in place of the button with the safe answer focused, so Enter or Escape keeps
// things as they are; closing it either way puts the keyboard back on the button.

export interface ConfirmProps {
  /** the button's text, and the act's name in the question's label */
  readonly label: string;
  readonly question: ComponentChildren;
  /** the answers: the one that acts (shown as danger) and the one that keeps things */
  readonly yes: string;
  readonly no: string;
  readonly disabled?: boolean;
  /** the button's accessible name when its text alone is ambiguous (several on a page) */
  readonly ariaLabel?: string;
  readonly onConfirm: () => void;
}

export const ConfirmButton = ({ label, question, yes, no, disabled, ariaLabel, onConfirm }: ConfirmProps) => {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const focusNext = useRef<'keep' | 'button' | null>(null);
  // A button still disabled (the act under way) cannot take focus: try again on the next render.
  useLayoutEffect(() => {
    const target = focusNext.current === 'keep' ? keep.current : focusNext.current === 'button' ? button.current : null;
    if (!target || target.disabled) return;
    focusNext.current = null;
    target.focus();
  });
  const toggle = (on: boolean) => { focusNext.current = on ? 'keep' : 'button'; setOpen(on); };
  if (!open) return <button type="button" class="danger" ref={button} disabled={disabled} aria-label={ariaLabel} onClick={() => toggle(true)}>{label}</button>;
  return (
    <div class="panel confirm" role="group" aria-label={`Confirm: ${ariaLabel ?? label}`}
      onKeyDown={(e) => { if (e.key === 'Escape') { e.preventDefault(); toggle(false); } }}>
      <p>{question}</p>
      <div class="row">
        <button type="button" class="danger" disabled={disabled} onClick={() => { toggle(false); onConfirm(); }}>{yes}</button>
        <button type="button" ref={keep} onClick={() => toggle(false)}>{no}</button>
      </div>
    </div>
  );
};
