import type { PreviewLimits } from './preview.js';
import { DEFAULT_PRICES, type PriceRow } from './prices.js';
import type { HarnessName } from './workflow.js';

// Settings are a journal of changes (stream 'settings'); this is the folded state and the shape of
// one change. A change names its setting by `_tag`, as the Settings page and change_setting send it.

export const TOOL_GROUPS = ['reading', 'starting', 'controlling', 'messaging', 'archiving', 'settings'] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number];

export const DEFAULT_RUN_CAP = 3;

export type RunCapChoice = { readonly _tag: 'Chosen'; readonly value: number } | { readonly _tag: 'Default' };

export type SettingChange =
  | { readonly _tag: 'RunCap'; readonly cap: RunCapChoice }
  | { readonly _tag: 'McpEndpoint'; readonly enabled: boolean }
  | { readonly _tag: 'McpToolGroup'; readonly group: ToolGroup; readonly enabled: boolean }
  | { readonly _tag: 'WatchdogTimeout'; readonly seconds: number }
  | { readonly _tag: 'DefaultHarness'; readonly harness: HarnessName }
  | { readonly _tag: 'CodeHost'; readonly graphqlUrl: string; readonly webHost: string }
  | { readonly _tag: 'CodeHostToken'; readonly token: string }
  | { readonly _tag: 'TriggerPollInterval'; readonly seconds: number }
  /** where /api/health reads the latest release; url null: the package's npm registry document */
  | { readonly _tag: 'ReleaseFeed'; readonly enabled: boolean; readonly url: string | null }
  /** what a turn costs per million tokens where its CLI reports no cost, for runs and supervisors (lib/usage/prices.ts) */
  | { readonly _tag: 'Prices'; readonly prices: readonly PriceRow[] }
  /** the same table under its earlier name (supervisors only priced turns then): still taken and read */
  | { readonly _tag: 'SupervisorPrices'; readonly prices: readonly PriceRow[] }
  /** the supervisor feature (docs/supervisors.md): off by default; while off every supervisor key gets 403 */
  | { readonly _tag: 'Supervisors'; readonly enabled: boolean }
  /** where a step's harness is out of quota, switch to the first of these that is ready (docs/usage.md); a workflow's own list wins */
  | { readonly _tag: 'FallbackHarnesses'; readonly harnesses: readonly HarnessName[] }
  /** how often a watching deliver step reads its pull request (lib/engine/pr-loop.ts) */
  | { readonly _tag: 'PullRequestWatchInterval'; readonly seconds: number }
  /** a command run for each "needs you" event (docs/shipping.md); argv [] turns it off */
  | { readonly _tag: 'NotifyCommand'; readonly argv: readonly string[]; readonly kinds: readonly NeedsKind[] }
  /** run previews (docs/preview.md): stopped after this many idle minutes; at most `limit` at once */
  | { readonly _tag: 'Previews'; readonly idleMinutes: number; readonly limit: number };

/** what makes a run need a person: a question, a gate, a failure, a supervisor's approval card, a pause by svc that waits for a person */
export const NEEDS_KINDS = ['question', 'gate', 'failed', 'card', 'paused'] as const;
export type NeedsKind = (typeof NEEDS_KINDS)[number];

export interface Settings {
  readonly runCap: RunCapChoice;
  readonly mcp: { readonly enabled: boolean; readonly groups: Readonly<Record<ToolGroup, boolean>> };
  readonly watchdogSeconds: number;
  /** null: not chosen; steps fall back to the shipped default (claude) */
  readonly defaultHarness: HarnessName | null;
  readonly codeHost: { readonly graphqlUrl: string; readonly webHost: string; readonly token: string | null };
  /** how often CodeHost trigger rules poll (lib/triggers) */
  readonly triggerPollSeconds: number;
  readonly releaseFeed: ReleaseFeedSetting;
  readonly prices: readonly PriceRow[];
  readonly supervisors: { readonly enabled: boolean };
  /** optional: settings folded before quota windows lack it (none) */
  readonly fallbackHarnesses?: readonly HarnessName[];
  /** null: no notification command */
  readonly notifyCommand: { readonly argv: readonly string[]; readonly kinds: readonly NeedsKind[] } | null;
  /** how often the pull request loop polls a watched pull request */
  readonly prWatchIntervalSeconds: number;
  /** optional: settings folded before previews lack it (DEFAULT_PREVIEW_LIMITS) */
  readonly previews?: PreviewLimits;
}

export const DEFAULT_SETTINGS: Settings = {
  runCap: { _tag: 'Default' },
  mcp: {
    enabled: true,
    groups: { reading: true, starting: true, controlling: true, messaging: true, archiving: false, settings: false },
  },
  watchdogSeconds: 600,
  defaultHarness: null,
  codeHost: { graphqlUrl: 'https://api.github.com/graphql', webHost: 'github.com', token: null },
  triggerPollSeconds: 60,
  releaseFeed: { enabled: true, url: null },
  prices: DEFAULT_PRICES,
  supervisors: { enabled: false },
  notifyCommand: null,
  prWatchIntervalSeconds: 60,
};

export const effectiveRunCap = (s: Settings): number => (s.runCap._tag === 'Chosen' ? s.runCap.value : DEFAULT_RUN_CAP);

/** who sent a change: the svc-setting-source header, or the MCP tool and its calling agent */
export interface SettingSource {
  readonly via: 'http' | 'mcp' | 'cli';
  readonly sender: string | null;
}

/** Settings > ReleaseFeed: `url` null is the package's own npm registry document */
export interface ReleaseFeedSetting {
  readonly enabled: boolean;
  readonly url: string | null;
}
