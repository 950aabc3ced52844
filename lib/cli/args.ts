// A small parser for the CLI's `--name value` flags; positional words come back in order.
export interface Parsed {
  readonly words: string[];
  readonly flags: Record<string, string | true>;
}

export const parseArgs = (argv: readonly string[]): Parsed => {
  const words: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) { words.push(a); continue; }
    const [name, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
    if (inline !== undefined) flags[name] = inline;
    else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) flags[name] = argv[++i]!;
    else flags[name] = true;
  }
  return { words, flags };
};
