import test from 'ava';
import { parsePersona } from '../../lib/workflows/persona-file.js';

test('a persona with a full header', (t) => {
  const p = parsePersona('critic', 'home', '---\nharness: codex\nmodel: "gpt-5"\ntools: read-only\ndescription: Finds faults.\n# a comment\n\n---\nYou find faults.\n\nKindly.\n');
  t.deepEqual(p.problems, []);
  t.is(p.description, 'Finds faults.');
  t.deepEqual(p.persona, { name: 'critic', origin: 'home', prompt: 'You find faults.\n\nKindly.', harness: 'codex', model: 'gpt-5', tools: 'read-only' });
});

test('a persona without a header is all prompt', (t) => {
  const p = parsePersona('plain', 'project', 'Just be helpful.\n---\nnot a header');
  t.deepEqual(p.persona, { name: 'plain', origin: 'project', prompt: 'Just be helpful.\n---\nnot a header' });
});

test('problems: unclosed header, bad values, unknown keys, empty body', (t) => {
  t.deepEqual(parsePersona('a', 'home', '---\ntools: edit\nYou...').problems, ['the header opened with --- is never closed with ---']);
  t.deepEqual(parsePersona('b', 'home', '---\nharness: gemini\ntools: root\ncolour: red\njust text\n---\n').problems, [
    'unknown header key colour (use harness, model, tools, description)',
    'header line "just text" is not key: value',
    'unknown harness gemini (use one of claude, codex, opencode)',
    'unknown tools value root (use one of read-only, edit, full)',
    'the persona has no prompt (write it below the header)',
  ]);
  t.is(parsePersona('b', 'home', '---\nharness: gemini\n---\nx').persona, undefined);
});

test('a byte-order mark and CRLF line ends are fine', (t) => {
  const p = parsePersona('w', 'home', '\uFEFF---\r\ntools: full\r\n---\r\nWindows prompt.\r\n');
  t.deepEqual(p.persona, { name: 'w', origin: 'home', prompt: 'Windows prompt.', tools: 'full' });
});
