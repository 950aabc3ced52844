import { right } from 'fp-ts/lib/Either.js';
import type { SettingsAccess } from '../mcp/tool.js';
import type { Service } from '../root/service.js';

// Settings as the tool endpoint reaches them: read, and change with the source recorded (a change
// the service takes always answers what it stored).
export const settingsAccess = (service: Service): SettingsAccess => ({
  read: () => service.settings(),
  change: (change, source) => right(service.changeSetting(change, source)),
});
