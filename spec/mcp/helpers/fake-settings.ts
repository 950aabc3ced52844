import { right } from 'fp-ts/lib/Either.js';
import { DEFAULT_SETTINGS, type Settings, type SettingChange, type SettingSource, type ToolGroup } from '../../../lib/settings/model.js';
import type { SettingsAccess } from '../../../lib/mcp/tool.js';

// In-memory settings with the recent-changes record, for endpoint tests.
export class FakeSettings implements SettingsAccess {
  current: Settings = DEFAULT_SETTINGS;
  readonly changes: { change: SettingChange; source: SettingSource }[] = [];

  read(): Settings { return this.current; }

  change(change: SettingChange, source: SettingSource) {
    this.changes.push({ change, source });
    if (change._tag === 'McpEndpoint') this.current = { ...this.current, mcp: { ...this.current.mcp, enabled: change.enabled } };
    if (change._tag === 'McpToolGroup') this.group(change.group, change.enabled);
    if (change._tag === 'RunCap') this.current = { ...this.current, runCap: change.cap };
    return right({ committed: change });
  }

  group(group: ToolGroup, enabled: boolean): void {
    this.current = { ...this.current, mcp: { ...this.current.mcp, groups: { ...this.current.mcp.groups, [group]: enabled } } };
  }

  allGroups(enabled: boolean): void {
    for (const g of Object.keys(this.current.mcp.groups) as ToolGroup[]) this.group(g, enabled);
  }
}
