import type { PersonaItem as ServerItem, PersonaView as ServerView } from '../../personas/personas.js';

// Personas as /api/personas shows them (docs/personas.md). Types and plain words only: the server
// checks what it is sent, and the pages render what they get as text.

type Origin = 'custom' | 'project' | 'home' | 'shipped';

/** a persona as the list shows it: the server's shape, its origin one of the four */
export type PersonaItem = Omit<ServerItem, 'origin'> & { readonly origin: Origin };

/** one persona read whole: its file text and the prompt the agent is given */
export type PersonaView = Omit<ServerView, 'origin'> & { readonly origin: Origin };

/** what the form edits: the parts of PUT /api/personas/{name} */
export interface PersonaParts {
  readonly prompt: string;
  readonly description: string;
  readonly harness: string;
  readonly model: string;
  readonly tools: string;
}

export const PERSONA_HARNESSES = ['claude', 'codex', 'opencode'] as const;
export const PERSONA_TOOLS = ['read-only', 'edit', 'full'] as const;

export const PERSONA_ORIGINS: readonly { readonly origin: PersonaItem['origin']; readonly title: string; readonly about: string }[] = [
  { origin: 'custom', title: 'Custom', about: 'Saved in svc from this page; a custom persona takes the place of any other of the same name.' },
  { origin: 'project', title: 'Project', about: "From .svc/personas in the project's primary folder." },
  { origin: 'home', title: 'Home', about: 'From the personas folder of the svc home.' },
  { origin: 'shipped', title: 'Shipped', about: 'Come with svc.' },
];

export const partsOf = (p: PersonaView | undefined): PersonaParts => ({
  prompt: p?.prompt ?? '', description: p?.description ?? '', harness: p?.harness ?? '', model: p?.model ?? '', tools: p?.tools ?? '',
});

/** `harness claude · model sonnet · tools read-only`, only what the persona sets */
export const settingsLine = (p: PersonaItem): string =>
  [['harness', p.harness], ['model', p.model], ['tools', p.tools]].filter(([, v]) => v).map(([k, v]) => `${k} ${v}`).join(' · ');
