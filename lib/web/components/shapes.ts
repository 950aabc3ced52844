import type { WorkflowListItem } from '../../../domain/runs.js';

// The shapes the admin pages read from /api (docs/workflows.md, README route table). Types only:
// the server decodes what it is sent, and the pages render what they get as text.

export type { ProjectView, WorkflowListItem } from '../../../domain/runs.js';

export type Availability =
  | { readonly _tag: 'Ready'; readonly version?: string }
  | { readonly _tag: 'NotInstalled' | 'NotLoggedIn'; readonly detail: string }
  | { readonly _tag: 'QuotaExhausted'; readonly detail: string; readonly resetsAt?: string }
  | { readonly _tag: 'Unchecked' };

export interface HarnessRow { readonly name: string; readonly availability: Availability }

export type { Diagnostic, ValidationResult as Validation } from '../../workflows/diagnostics.js';

export interface WorkflowRead {
  readonly name: string;
  readonly origin: WorkflowListItem['origin'];
  readonly version: string;
  readonly source: string;
  readonly steps: readonly { readonly id: string; readonly kind: string; readonly label: string | null }[];
}

/** `Ready (1.2.3)`, `NotLoggedIn: run claude login` */
export const availabilityText = (a: Availability): string =>
  a._tag === 'Ready' ? (a.version ? `Ready (${a.version})` : 'Ready')
  : a._tag === 'Unchecked' ? 'Not checked yet'
  : `${a._tag}: ${a.detail}`;
