import { defineTool, type Tool } from '../tool.js';
import { ChangeSettingArgs } from '../../inputs/acting-args.js';

export const changeSetting: Tool = defineTool({
  name: 'change_setting',
  group: 'settings',
  description:
    'Change one setting, in the shape the Settings page sends; _tag names the setting. The same checks apply and the change takes effect at once; it is recorded with this tool and the calling agent.',
  args: ChangeSettingArgs,
  notes: { change: 'The change, e.g. {"_tag":"RunCap","cap":{"_tag":"Chosen","value":4}}.' },
  call: (a, { settings, actor }) => settings.change(a.change, { via: 'mcp', sender: actor.name ?? null }),
});
