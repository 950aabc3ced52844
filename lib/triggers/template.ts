// Goal, title and input templates of a rule, filled from the event: `{{event.<field>}}`. Like the
// workflows' prompt templates (lib/workflows/template.ts), values are data: each placeholder is
// replaced in one pass, so an issue title holding `{{...}}` is inserted verbatim and never expanded,
// and nothing is ever handed to a shell. An unknown field stays visible as written.

const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

export type EventFields = Readonly<Record<string, string>>;

/** how a value is put into the text: as it is, or (a run's goal from an outside event) fenced */
export type Quote = (field: string, value: string) => string;
const asIs: Quote = (_field, value) => value;

export const renderTemplate = (template: string, fields: EventFields, quote: Quote = asIs): string =>
  template.replace(PLACEHOLDER, (whole, name: string) => {
    if (!name.startsWith('event.')) return whole;
    const key = name.slice('event.'.length);
    return Object.prototype.hasOwnProperty.call(fields, key) ? quote(key, fields[key]!) : whole;
  });

export const renderInputs = (inputs: Readonly<Record<string, string>>, fields: EventFields): Record<string, string> =>
  Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, renderTemplate(v, fields)]));
