
// Prompt templating. Values are data: each placeholder is replaced in one pass over the template,
// so a goal or input that itself contains `{{...}}` is inserted verbatim and never expanded.

export interface PromptContext {
  readonly goal: string;
  readonly inputs: Readonly<Record<string, string>>;
  /** the step that ran before this one; absent for the first step */
  readonly previous?: { readonly node: string; readonly outcome: string; readonly summary: string };
  /** the run's preview while it runs (a `kind=preview` step started it): its URL through svc */
  readonly preview?: { readonly url: string };
}

const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;
const PREVIOUS_FIELDS = ['node', 'outcome', 'summary'] as const;

export type PlaceholderRef =
  | { readonly kind: 'goal' }
  | { readonly kind: 'input'; readonly name: string }
  | { readonly kind: 'previous'; readonly field: (typeof PREVIOUS_FIELDS)[number] }
  | { readonly kind: 'preview' }
  | { readonly kind: 'unknown'; readonly text: string };

export const classifyPlaceholder = (name: string): PlaceholderRef => {
  if (name === 'goal') return { kind: 'goal' };
  if (name.startsWith('inputs.') && name.length > 'inputs.'.length) return { kind: 'input', name: name.slice('inputs.'.length) };
  const field = PREVIOUS_FIELDS.find((f) => name === `previous.${f}`);
  if (field) return { kind: 'previous', field };
  if (name === 'preview.url') return { kind: 'preview' };
  return { kind: 'unknown', text: name };
};

/** every placeholder written in a template, in order */
export const placeholdersIn = (template: string): PlaceholderRef[] =>
  [...template.matchAll(PLACEHOLDER)].map((m) => classifyPlaceholder(m[1]));

// An unknown name, or an input the run was not given, stays visible as written so the mistake
// shows in the prompt rather than vanishing. `previous.*` is empty on the first step.
const valueOf = (ref: PlaceholderRef, ctx: PromptContext): string | undefined => {
  switch (ref.kind) {
    case 'goal': return ctx.goal;
    case 'input': return Object.prototype.hasOwnProperty.call(ctx.inputs, ref.name) ? ctx.inputs[ref.name] : undefined;
    case 'previous': return ctx.previous ? String(ctx.previous[ref.field]) : '';
    // no preview running: left as written, so the missing preview step shows in the prompt
    case 'preview': return ctx.preview?.url;
    case 'unknown': return undefined;
  }
};

export const renderPrompt = (template: string, ctx: PromptContext): string =>
  template.replace(PLACEHOLDER, (whole, name: string) => valueOf(classifyPlaceholder(name), ctx) ?? whole);
