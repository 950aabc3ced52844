import { left, right, type Either } from 'fp-ts/lib/Either.js';
import { workflowNameProblem, type PersonaSource } from '../workflows/catalog-sources.js';
import type { Catalog, ProjectRef } from '../workflows/catalog.js';
import { parsePersona } from '../workflows/persona-file.js';
import { personaText, type PersonaInput } from './input.js';

// Personas as the API shows them (GET/PUT/DELETE /api/personas): each one from the origin that
// wins (custom > project > home > shipped), whether it loads and why not. Only a persona that
// loads can be saved; files on disk that do not load are listed with their problems.

export interface PersonaItem {
  readonly name: string;
  readonly origin: string;
  readonly description: string;
  readonly harness: string | null;
  readonly model: string | null;
  readonly tools: string | null;
  readonly loads: boolean;
  readonly problems: readonly string[];
}

export interface PersonaView extends PersonaItem {
  /** the persona file's text as stored */
  readonly source: string;
  /** what the agent is given (null when it does not load) */
  readonly prompt: string | null;
}

/** a persona file's text may be at most this long (like a prompt file) */
export const MAX_PERSONA_CHARS = 256 * 1024;

const itemOf = (p: PersonaSource): PersonaItem => {
  const persona = p.parsed.persona;
  return {
    name: p.name, origin: p.origin, description: p.parsed.description,
    harness: persona?.harness ?? null, model: persona?.model ?? null, tools: persona?.tools ?? null,
    loads: persona !== undefined, problems: p.parsed.problems,
  };
};

const viewOf = (p: PersonaSource): PersonaView => ({ ...itemOf(p), source: p.source, prompt: p.parsed.persona?.prompt ?? null });

export const listPersonas = (catalog: Catalog, project?: ProjectRef): PersonaItem[] =>
  [...catalog.personas(project).values()].sort((a, b) => a.name.localeCompare(b.name)).map(itemOf);

export const readPersona = (catalog: Catalog, name: string, project?: ProjectRef): PersonaView | undefined => {
  const p = catalog.personas(project).get(name);
  return p ? viewOf(p) : undefined;
};

/** why a text cannot be saved as persona `name`, or undefined when it can */
export const personaProblems = (name: string, text: string): string | undefined => {
  const badName = workflowNameProblem(name)?.replace('workflow name', 'persona name');
  if (badName) return badName;
  if (text.length > MAX_PERSONA_CHARS) return `the persona is larger than ${MAX_PERSONA_CHARS / 1024} KiB`;
  const parsed = parsePersona(name, 'custom', text);
  return parsed.problems.length ? `persona ${name} not saved: ${parsed.problems.join('; ')}` : undefined;
};

/** saves a custom persona that loads; Left is the detail of why not */
export const savePersona = (catalog: Catalog, name: string, input: PersonaInput): Either<string, PersonaView> => {
  const text = personaText(input);
  const problem = personaProblems(name, text);
  if (problem) return left(problem);
  catalog.saveCustomPersona(name, text);
  const saved = readPersona(catalog, name);
  return saved ? right(saved) : left(`persona ${name} was saved but cannot be read back`);
};
