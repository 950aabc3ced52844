import { quoted } from '../../domain/quoted.js';

// The body of PUT /api/personas/{name}: either the persona file's text, `{"source": "..."}`, or
// its parts, `{"prompt": "...", "description"?, "harness"?, "model"?, "tools"?}`, which are written
// out as that same file. Either way one text is stored, the one a `<name>.md` file would hold.

export type PersonaInput = { readonly source: string } | { readonly prompt: string; readonly header: Readonly<Record<string, string>> };

const PART_KEYS = ['prompt', 'description', 'harness', 'model', 'tools'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const SHAPE = 'the body is {"source": "<persona file text>"} or {"prompt": "...", "description"?, "harness"?, "model"?, "tools"?}';

const decodeParts = (body: Record<string, unknown>): PersonaInput | string => {
  const unknown = Object.keys(body).filter((k) => !(PART_KEYS as readonly string[]).includes(k));
  if (unknown.length) return `unknown field ${unknown.slice(0, 5).map((k) => JSON.stringify(quoted(k))).join(', ')}; ${SHAPE}`;
  for (const k of PART_KEYS) {
    const v = body[k];
    if (v !== undefined && typeof v !== 'string') return `${k} must be a string (got ${v === null ? 'null' : typeof v})`;
  }
  const header: Record<string, string> = {};
  for (const k of PART_KEYS.slice(1)) {
    const v = body[k] as string | undefined;
    if (v === undefined || v === '') continue;
    if (/[\r\n]/.test(v)) return `${k} must be one line`;
    header[k] = v.trim();
  }
  return { prompt: body['prompt'] as string, header };
};

/** the persona input, or why the body is not one */
export const decodePersonaInput = (body: unknown): PersonaInput | string => {
  if (!isObject(body)) return `the body must be a JSON object: ${SHAPE}`;
  if ('source' in body && 'prompt' in body) return `give either source or prompt, not both; ${SHAPE}`;
  if (!('source' in body)) return 'prompt' in body ? decodeParts(body) : `source or prompt is required; ${SHAPE}`;
  const extra = Object.keys(body).filter((k) => k !== 'source');
  if (extra.length) return `unknown field ${extra.slice(0, 5).map((k) => JSON.stringify(quoted(k))).join(', ')} next to source; ${SHAPE}`;
  return typeof body['source'] === 'string' ? { source: body['source'] } : `source must be a string (got ${body['source'] === null ? 'null' : typeof body['source']})`;
};

/** the persona file text for an input */
export const personaText = (input: PersonaInput): string => {
  if ('source' in input) return input.source;
  const lines = Object.entries(input.header).map(([k, v]) => `${k}: ${v}`);
  const prompt = input.prompt.trim();
  // A prompt that itself opens with --- would be read as a header: give it an (empty) one first.
  const needsHeader = lines.length > 0 || prompt.split('\n', 1)[0]!.trim() === '---';
  return needsHeader ? `---\n${lines.map((l) => `${l}\n`).join('')}---\n${prompt}\n` : `${prompt}\n`;
};
