import type { ComponentType } from 'preact';
import type { PageProps } from './page-props.js';

// Every page of the app. To add one: a file under pages/ exporting `Page`, and a row here. Pages
// are loaded when first shown (each is its own chunk), so a heavy page costs the first load nothing.

export interface PageModule {
  readonly Page: ComponentType<PageProps>;
}

export interface Route {
  readonly path: string;
  readonly load: () => Promise<PageModule>;
  /** shown in the main navigation, in this order */
  readonly nav?: string;
  /** the navigation entry marked current on this route, when it is not the route's own */
  readonly section?: string;
  /** the page follows the whole board: the shell's needs-you count is read from that index */
  readonly wholeBoard?: true;
}

export const ROUTES: readonly Route[] = [
  { path: '/', nav: 'Runs', wholeBoard: true, load: () => import('./pages/runs.js') },
  { path: '/runs/:id', section: '/', load: () => import('./pages/run.js') },
  { path: '/compare', section: '/', load: () => import('./pages/compare.js') },
  { path: '/new', nav: 'New run', load: () => import('./pages/new-run.js') },
  { path: '/projects', nav: 'Projects', load: () => import('./pages/projects.js') },
  { path: '/workflows', nav: 'Workflows', load: () => import('./pages/workflows.js') },
  { path: '/workflows/:name', section: '/workflows', load: () => import('./pages/workflows.js') },
  { path: '/supervisors', nav: 'Supervisors', load: () => import('./pages/supervisors.js') },
  { path: '/machines', nav: 'Machines', load: () => import('./pages/machines.js') },
  { path: '/usage', nav: 'Usage', load: () => import('./pages/usage.js') },
  { path: '/triggers', nav: 'Triggers', load: () => import('./pages/triggers.js') },
  { path: '/personas', nav: 'Personas', load: () => import('./pages/personas.js') },
  { path: '/personas/:name', section: '/personas', load: () => import('./pages/personas.js') },
  { path: '/skills', nav: 'Skills', load: () => import('./pages/skills.js') },
  { path: '/settings', nav: 'Settings', load: () => import('./pages/settings.js') },
];

export const NOT_FOUND: Route = { path: '*', load: () => import('./pages/not-found.js') };
