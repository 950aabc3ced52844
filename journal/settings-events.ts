import * as t from 'io-ts';
import { SettingChangeCodec } from '../lib/settings/codec.js';
import { oneOf } from './codec-util.js';

// Settings are one journal ('settings'): each change with who sent it.
export const SETTINGS_EVENT_CODECS = {
  SettingChanged: t.type({
    change: SettingChangeCodec,
    source: t.type({ via: oneOf(['http', 'mcp', 'cli'] as const), sender: t.union([t.string, t.null]) }),
  }),
  McpTokenRegenerated: t.type({ source: t.type({ via: oneOf(['http', 'mcp', 'cli'] as const), sender: t.union([t.string, t.null]) }) }),
} as const;

type Codecs = typeof SETTINGS_EVENT_CODECS;
export type SettingsEvent = { [K in keyof Codecs]: { readonly type: K; readonly data: t.TypeOf<Codecs[K]> } }[keyof Codecs];
