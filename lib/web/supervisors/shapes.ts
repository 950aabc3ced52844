import type { ApprovalCard } from '../../../projections/approvals.js';
import type { SupervisorView } from '../../state/supervisors.js';

// The shapes the Supervisors page reads from /api (docs/supervisors.md, docs/supervisor-agents.md).
// Types only: the server decodes what it is sent, and the page renders what it gets as text.

export type { ApprovalCard, SupervisorView };

export const TIERS = ['DoIt', 'AskFirst', 'Never'] as const;
export type Tier = (typeof TIERS)[number];

/** the five action settings in the order docs/supervisors.md lists them, with what each allows */
export const ACTIONS = [
  { key: 'messageAndControl', label: 'Message and control runs', tools: 'pause, resume, abort, jump; revise goals; message runs; answer questions; check a pull request now' },
  { key: 'secureWork', label: 'Secure work', tools: 'commit and push a run\'s work; open its pull request; merge it locally; update it from its base' },
  { key: 'switchHarness', label: 'Switch harness', tools: 'move a run to another harness (only one of its quota fallbacks)' },
  { key: 'startRuns', label: 'Start runs', tools: 'start new runs in the projects it owns' },
  { key: 'archiveRuns', label: 'Archive and resolve runs', tools: 'archive ended runs, resolve failed ones' },
] as const;
export type ActionKey = (typeof ACTIONS)[number]['key'];

export const WAKES = [
  { key: 'question', label: 'a run asks a question' },
  { key: 'failed', label: 'a run fails' },
  { key: 'gate', label: 'a run stops at a gate' },
  { key: 'checksFailed', label: 'a pull request\'s checks fail' },
] as const;

/** one entry of a supervisor's chat, as GET …/chat and the `chat` push event carry it */
export type ChatEntry =
  | { readonly seq: number; readonly at: string; readonly type: string; readonly data: Readonly<Record<string, unknown>> }
  | { readonly seq: number; readonly at: string; readonly type: 'Unreadable'; readonly detail: string; readonly data?: undefined };

export interface ChatPage { readonly entries: readonly ChatEntry[]; readonly before: number | null }

export interface ProjectRow { readonly id: string; readonly name: string }
