import { parseArgs as parseNode } from 'node:util';

// Each command's flags are declared and parsed by node:util parseArgs in strict mode: an unknown
// flag, a flag without its value or a value on a switch is refused, with the command's usage, as
// a usage error (exit 2). Every command takes --help / -h.

export type OptionSpec = { readonly type: 'string' } | { readonly type: 'boolean' };

export interface CommandSpec {
  /** the words that name it, e.g. ['project', 'add'] */
  readonly words: readonly string[];
  /** the synopsis after `svc`, e.g. `project add NAME PATH [PATH...]` */
  readonly synopsis: string;
  readonly summary: string;
  readonly options?: Readonly<Record<string, OptionSpec>>;
  /** how many positional words it takes */
  readonly positionals?: { readonly min: number; readonly max?: number };
}

export interface Parsed {
  readonly words: string[];
  readonly flags: Readonly<Record<string, string | true>>;
}

/** a mistake in how the command was called: the caller prints the usage and exits 2 */
export class UsageError extends Error {}

export const usageOf = (spec: CommandSpec): string => `usage: svc ${spec.synopsis}\n  ${spec.summary}\n`;

// Node's messages are reworded to name the flag and the fix; the unknown-option one also trails a
// hint with a broken quote.
const parseProblem = (e: Error & { code?: string }): string => {
  const flag = /'(?:-\w, )?(--?[\w-]+)/.exec(e.message)?.[1] ?? '';
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${flag} (a word that starts with - goes after --)`;
  if (/argument missing/.test(e.message)) return `${flag} needs a value`;
  if (/ambiguous/.test(e.message)) return `${flag} needs a value (one that starts with - is written ${flag}=VALUE)`;
  if (/does not take an argument/.test(e.message)) return `${flag} takes no value`;
  return e.message.split('\n')[0]!;
};

export const parseCommand = (spec: CommandSpec, argv: readonly string[]): Parsed | 'help' => {
  let parsed;
  try {
    parsed = parseNode({
      args: [...argv],
      options: { ...spec.options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    });
  } catch (e) {
    throw new UsageError(parseProblem(e as Error & { code?: string }));
  }
  if (parsed.values.help === true) return 'help';
  const flags: Record<string, string | true> = {};
  for (const [k, v] of Object.entries(parsed.values)) if (k !== 'help' && v !== undefined && v !== false) flags[k] = v as string | true;
  const words = parsed.positionals;
  const { min, max } = spec.positionals ?? { min: 0, max: 0 };
  if (words.length < min) throw new UsageError(`${spec.words.join(' ')} needs ${min === 1 ? 'an argument' : `${min} arguments`}`);
  if (max !== undefined && words.length > max) throw new UsageError(`unexpected argument: ${words[max]}`);
  return { words, flags };
};
