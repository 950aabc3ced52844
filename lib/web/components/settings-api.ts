import { api } from '../api.js';

/** a row of the Prices table as the Settings page edits it */
export interface PriceRow {
  readonly harness: string;
  readonly model: string;
  readonly inputPerMTok: number;
  readonly cachedInputPerMTok: number;
  readonly outputPerMTok: number;
}

// Settings shapes (domain/settings.ts as GET /api/settings shows them) and the one way the
// Settings page changes one: PUT /api/settings with one change, sent as "Settings page" so the
// recent-changes list says where it came from.

export const TOOL_GROUPS = ['reading', 'starting', 'controlling', 'messaging', 'archiving', 'settings'] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number];

export interface SettingsView {
  readonly runCap: { readonly _tag: 'Chosen'; readonly value: number } | { readonly _tag: 'Default' };
  readonly mcp: { readonly enabled: boolean; readonly groups: Readonly<Record<ToolGroup, boolean>> };
  readonly watchdogSeconds: number;
  readonly defaultHarness: string | null;
  readonly codeHost: { readonly graphqlUrl: string; readonly webHost: string; readonly token: string | null };
  readonly notifyCommand: { readonly argv: readonly string[]; readonly kinds: readonly string[] } | null;
  readonly prWatchIntervalSeconds: number;
  /** absent in settings folded before quota windows: none */
  readonly fallbackHarnesses?: readonly string[];
  /** USD per million tokens by harness and model (settings-prices.tsx) */
  readonly prices?: readonly PriceRow[];
}

export interface McpView {
  readonly url: string;
  readonly token: string;
  readonly enabled: boolean;
  readonly groups: Readonly<Record<ToolGroup, boolean>>;
}

export interface ChangeRow {
  readonly seq: number;
  readonly at: string;
  readonly change: { readonly _tag: string } & Record<string, unknown>;
  readonly source: { readonly via: string; readonly sender: string | null };
}

export const SOURCE = 'Settings page';
export const DEFAULT_RUN_CAP = 3;

export const changeSetting = (change: { readonly _tag: string } & Record<string, unknown>): Promise<unknown> =>
  api('settings', { method: 'PUT', body: change, headers: { 'svc-setting-source': SOURCE } });

const onOff = (b: unknown) => (b ? 'on' : 'off');

/** one line a person reads: `Run cap: 5`, `MCP tool group archiving: on` */
export const describeChange = (c: ChangeRow['change']): string => {
  switch (c._tag) {
    case 'RunCap': {
      const cap = c['cap'] as SettingsView['runCap'];
      return cap._tag === 'Chosen' ? `Run cap: ${cap.value}` : `Run cap: the default (${DEFAULT_RUN_CAP})`;
    }
    case 'McpEndpoint': return `MCP endpoint: ${onOff(c['enabled'])}`;
    case 'McpToolGroup': return `MCP tool group ${String(c['group'])}: ${onOff(c['enabled'])}`;
    case 'McpTokenRegenerated': return 'MCP token regenerated';
    case 'WatchdogTimeout': return `Watchdog: ${String(c['seconds'])} s`;
    case 'DefaultHarness': return `Default harness: ${String(c['harness'])}`;
    case 'CodeHost': return `Code host: ${String(c['webHost'])} (${String(c['graphqlUrl'])})`;
    case 'CodeHostToken': return c['token'] ? 'Code host token set' : 'Code host token cleared';
    case 'TriggerPollInterval': return `Trigger poll interval: ${String(c['seconds'])} s`;
    case 'PullRequestWatchInterval': return `Pull request watch interval: ${String(c['seconds'])} s`;
    case 'ReleaseFeed': return `Release feed: ${onOff(c['enabled'])}${c['url'] ? ` (${String(c['url'])})` : ''}`;
    case 'Prices': case 'SupervisorPrices': return 'Prices changed';
    case 'Supervisors': return `Supervisors: ${onOff(c['enabled'])}`;
    case 'FallbackHarnesses': return `Fallback harnesses on quota: ${(c['harnesses'] as string[]).join(', ') || 'none'}`;
    case 'NotifyCommand': return Array.isArray(c['argv']) && c['argv'].length ? `Notification command: ${JSON.stringify(c['argv'])} for ${(c['kinds'] as string[]).join(', ') || 'nothing'}` : 'Notification command: off';
    case 'Previews': return `Previews: stopped after ${String(c['idleMinutes'])} idle min, at most ${String(c['limit'])} at once`;
    default: return c._tag;
  }
};

export const describeSource = (s: ChangeRow['source']): string => `${s.sender ?? 'an unnamed sender'} (${s.via === 'http' ? 'HTTP' : s.via === 'mcp' ? 'MCP' : s.via === 'cli' ? 'command line' : s.via})`;
