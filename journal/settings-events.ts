import * as t from 'io-ts';
import { StoredSettingChangeCodec } from '../domain/settings-codec.js';
import { oneOf } from './codec-util.js';
import type { SettingChange } from '../domain/settings.js';

// Settings are one journal ('settings'): each change with who sent it.
export const SETTINGS_EVENT_CODECS = {
  SettingChanged: t.type({
    change: StoredSettingChangeCodec,
    source: t.type({ via: oneOf(['http', 'mcp', 'cli'] as const), sender: t.union([t.string, t.null]) }),
  }),
  McpTokenRegenerated: t.type({ source: t.type({ via: oneOf(['http', 'mcp', 'cli'] as const), sender: t.union([t.string, t.null]) }) }),
} as const;

// Written with the domain's SettingChange (the codec's branded numbers are a decoding detail).
type Source = { readonly via: 'http' | 'mcp' | 'cli'; readonly sender: string | null };
export type SettingsEvent =
  | { readonly type: 'SettingChanged'; readonly data: { readonly change: SettingChange; readonly source: Source } }
  | { readonly type: 'McpTokenRegenerated'; readonly data: { readonly source: Source } };
