import type { ComponentChildren } from 'preact';

// A labelled control: the label is tied to the control by `for`, not by wrapping it, so a select's
// options never become part of its accessible name.
export const Field = ({ id, label, children, hint }: { readonly id: string; readonly label: string; readonly children: ComponentChildren; readonly hint?: ComponentChildren }) => (
  <div class="field">
    <label for={id}>{label}</label>
    {children}
    {hint}
  </div>
);
