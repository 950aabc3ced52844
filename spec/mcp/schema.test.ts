import test from 'ava';
import * as io from 'io-ts';
import { isRight } from 'fp-ts/lib/Either.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { TOOLS } from '../../lib/mcp/registry.js';
import { toJsonSchema, type JsonSchema } from '../../lib/mcp/json-schema.js';
import { args } from '../../lib/inputs/object.js';
import { intRange, nonBlank, oneLine, oneOf, withDefault } from '../../lib/inputs/kinds.js';
import { describeErrors } from '../../lib/inputs/describe.js';
import { EXAMPLES } from './helpers/examples.js';
import { GROUPS } from '../../lib/web/components/settings-mcp.js';

// One source of truth: each tool's advertised inputSchema is derived from its io-ts codec, so a
// value the codec accepts the schema accepts, and a shape the codec refuses the schema refuses.

const ajv = new AjvJsonSchemaValidator();
const validates = (schema: JsonSchema, value: unknown): boolean => ajv.getValidator(schema as never)(value).valid;

test('every tool has examples, and every example names a tool', (t) => {
  t.deepEqual(Object.keys(EXAMPLES).sort(), TOOLS.map((x) => x.name).sort());
});

for (const tool of TOOLS) {
  const ex = EXAMPLES[tool.name];
  test(`${tool.name}: valid examples decode and validate`, (t) => {
    t.true(ex.valid.length > 0);
    for (const v of ex.valid) {
      const decoded = tool.args.decode(v);
      t.true(isRight(decoded), `${JSON.stringify(v)} should decode: ${isRight(decoded) ? '' : describeErrors(decoded.left)}`);
      t.true(validates(tool.inputSchema, v), `${JSON.stringify(v)} should validate`);
    }
  });
  test(`${tool.name}: invalid shapes fail both the codec and the schema`, (t) => {
    const shapes = ex.bad.filter((b) => b.shape);
    t.true(shapes.length > 0);
    for (const b of shapes) {
      t.false(isRight(tool.args.decode(b.args)), `${JSON.stringify(b.args)} should not decode`);
      t.false(validates(tool.inputSchema, b.args), `${JSON.stringify(b.args)} should not validate`);
    }
  });
  test(`${tool.name}: schema is a closed object`, (t) => {
    t.is(tool.inputSchema.type, 'object');
    t.is(tool.inputSchema.additionalProperties, false);
  });
}

test('the converter: kinds, defaults, required and closed objects', (t) => {
  const codec = args(
    { run: nonBlank(10), size: withDefault(intRange(1, 200), 10) },
    { kind: oneOf(['a', 'b'] as const), tags: io.array(io.string), map: io.record(io.string, io.string), flag: io.boolean, n: io.number, title: oneLine(80), id: io.Int },
  );
  t.deepEqual(toJsonSchema(codec, { run: 'Run id.' }), {
    type: 'object',
    properties: {
      run: { type: 'string', minLength: 1, maxLength: 10, pattern: '\\S', description: 'Run id.' },
      size: { type: 'integer', minimum: 1, maximum: 200, default: 10 },
      kind: { type: 'string', enum: ['a', 'b'] },
      tags: { type: 'array', items: { type: 'string' } },
      map: { type: 'object', additionalProperties: { type: 'string' } },
      flag: { type: 'boolean' },
      n: { type: 'number' },
      title: { type: 'string', minLength: 1, maxLength: 80, pattern: '^[^\\r\\n]*\\S[^\\r\\n]*$' },
      id: { type: 'integer' },
    },
    required: ['run'],
    additionalProperties: false,
  });
});

test('the converter: plain io-ts objects, partials, exact types, unions', (t) => {
  const plain = io.intersection([io.type({ a: io.string }), io.partial({ b: io.literal(3) })]);
  t.deepEqual(toJsonSchema(plain), { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number', enum: [3] } }, required: ['a'] });
  t.deepEqual(toJsonSchema(io.strict({ x: io.boolean })), { type: 'object', properties: { x: { type: 'boolean' } }, required: ['x'], additionalProperties: false });
  t.deepEqual(toJsonSchema(io.union([io.string, io.array(io.string)])), { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] });
  t.deepEqual(toJsonSchema(io.keyof({ x: null, y: null })), { type: 'string', enum: ['x', 'y'] });
});

test('the converter refuses a type it cannot describe, rather than advertising a lie', (t) => {
  t.throws(() => toJsonSchema(io.unknown), { message: /no JSON Schema for io-ts type unknown/ });
  t.throws(() => toJsonSchema(io.record(io.keyof({ a: null }), io.string)), { message: /records keyed by/ });
});

test('a missing argument with a default decodes as the default', (t) => {
  const codec = args({ run: nonBlank(), pageSize: withDefault(intRange(1, 200), 25) });
  const decoded = codec.decode({ run: 'r1' });
  t.true(isRight(decoded) && decoded.right.pageSize === 25);
});

test('unknown arguments are named, even ones that shadow Object.prototype', (t) => {
  const codec = args({ run: nonBlank() });
  for (const key of ['runId', 'constructor', 'toString']) {
    const decoded = codec.decode({ run: 'r1', [key]: 1 });
    t.false(isRight(decoded));
    if (!isRight(decoded)) t.is(describeErrors(decoded.left), `unknown argument: ${key}`);
  }
});

test('Settings > MCP lists every tool under its group, and no tool that is not there', (t) => {
  for (const [group, { tools }] of Object.entries(GROUPS)) {
    t.deepEqual(tools.split(', ').sort(), TOOLS.filter((x) => x.group === group).map((x) => x.name).sort(), group);
  }
});
