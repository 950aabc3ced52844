import { right } from 'fp-ts/lib/Either.js';
import type { SettingChangeRow } from '../../projections/settings.js';
import { redact } from '../../projections/settings.js';
import type { SettingChange, SettingSource } from '../../domain/settings.js';
import type { ServiceCore } from './core.js';
import { decodeStored, isUnreadable } from '../../journal/decode.js';
import { SETTINGS_EVENT_CODECS, type SettingsEvent } from '../../journal/settings-events.js';

// A settings change is decoded at the boundary (domain/settings-codec.ts), so every change that
// arrives here is one the Settings page would accept. It takes effect at once: the engine reacts
// to a new run cap by handing out slots (lib/engine/engine.ts).
export const changeSetting = (core: ServiceCore, change: SettingChange, source: SettingSource): { committed: SettingChange } => {
  core.settings.transact(() => right([{ type: 'SettingChanged', data: { change, source } }]), { at: core.now().toISOString(), onStale: 'retry' });
  // switching the feature on makes the global supervisor (once), with its safe defaults
  if (change._tag === 'Supervisors' && change.enabled) core.supervisors.ensureGlobal(source);
  return { committed: redact(change) as SettingChange };
};

export const recordTokenRegenerated = (core: ServiceCore, source: SettingSource): void => {
  core.settings.transact(() => right([{ type: 'McpTokenRegenerated', data: { source } }]), { at: core.now().toISOString(), onStale: 'retry' });
};

export const recentChanges = (core: ServiceCore, limit = 50): SettingChangeRow[] =>
  core.settings
    .events()
    .slice(-limit)
    .reverse()
    .flatMap((raw) => {
      const e = decodeStored<SettingsEvent>(SETTINGS_EVENT_CODECS, raw);
      return isUnreadable(e) ? [] : [{ seq: e.seq, at: e.at, change: redact(e.type === 'SettingChanged' ? e.data.change : { _tag: 'McpTokenRegenerated' }), source: e.data.source }];
    });
