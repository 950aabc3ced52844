import type { SettingsEvent } from '../journal/settings-events.js';
import type { Settings, SettingChange, SettingSource } from '../domain/settings.js';

export const applyChange = (s: Settings, c: SettingChange): Settings => {
  switch (c._tag) {
    case 'RunCap': return { ...s, runCap: c.cap };
    case 'McpEndpoint': return { ...s, mcp: { ...s.mcp, enabled: c.enabled } };
    case 'McpToolGroup': return { ...s, mcp: { ...s.mcp, groups: { ...s.mcp.groups, [c.group]: c.enabled } } };
    case 'WatchdogTimeout': return { ...s, watchdogSeconds: c.seconds };
    case 'DefaultHarness': return { ...s, defaultHarness: c.harness };
    case 'CodeHost': return { ...s, codeHost: { ...s.codeHost, graphqlUrl: c.graphqlUrl, webHost: c.webHost } };
    case 'CodeHostToken': return { ...s, codeHost: { ...s.codeHost, token: c.token === '' ? null : c.token } };
    case 'TriggerPollInterval': return { ...s, triggerPollSeconds: c.seconds };
    case 'ReleaseFeed': return { ...s, releaseFeed: { enabled: c.enabled, url: c.url } };
    case 'Prices': case 'SupervisorPrices': return { ...s, prices: c.prices };
    case 'Supervisors': return { ...s, supervisors: { enabled: c.enabled } };
    case 'FallbackHarnesses': return { ...s, fallbackHarnesses: [...new Set(c.harnesses)] };
    case 'NotifyCommand': return { ...s, notifyCommand: c.argv.length === 0 ? null : { argv: c.argv, kinds: c.kinds } };
    case 'PullRequestWatchInterval': return { ...s, prWatchIntervalSeconds: c.seconds };
    case 'Previews': return { ...s, previews: { idleMinutes: c.idleMinutes, limit: c.limit } };
  }
};

export const evolveSettings = (s: Settings, e: SettingsEvent): Settings => {
  switch (e.type) {
    case 'SettingChanged': return applyChange(s, e.data.change);
    case 'McpTokenRegenerated': return s;
  }
};

export interface SettingChangeRow {
  readonly seq: number;
  readonly at: string;
  readonly change: SettingChange | { readonly _tag: 'McpTokenRegenerated' };
  readonly source: SettingSource;
}

// Secrets never leave the service in the recent-changes list.
export const redact = (c: SettingChangeRow['change']): SettingChangeRow['change'] =>
  c._tag === 'CodeHostToken' ? { ...c, token: c.token ? '(set)' : '' } : c;

export const publicSettings = (s: Settings) => ({ ...s, codeHost: { ...s.codeHost, token: s.codeHost.token ? '(set)' : null } });
