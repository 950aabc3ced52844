import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SettingChangeCodec } from '../../domain/settings-codec.js';
import { repoRoot } from '../helpers/env.js';

// The README's list of setting changes is what a newcomer reads to write `PUT /api/settings`:
// it names every `_tag` the decoder takes (it once lacked `Supervisors`).

// the decoder refuses NUL bytes around a closed decoder (unknown fields refused); its union is inside
const tags = (): string[] => SettingChangeCodec.type.type.types.map((c) => c.type.props._tag.value);

const settingsParagraph = (): string => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('Settings changes (`_tag`):');
  return readme.slice(start, readme.indexOf('\n\n', start));
};

test('the README\'s settings list names every setting the decoder takes', (t) => {
  const paragraph = settingsParagraph();
  t.true(paragraph.length > 0);
  t.deepEqual(tags().filter((tag) => !paragraph.includes(`\`${tag}\``)), []);
});
