// Reading prompts the way a model (or a Markdown parser) would: a block opens with a line of 3+
// backticks and `untrusted`, and ends at the first line of at least as many backticks. Tests
// use it to check that text from runs and agents is only ever inside such a labelled block.

export interface Fenced {
  /** the prompt with every fenced block taken out */
  readonly outside: string;
  readonly blocks: readonly { readonly label: string; readonly text: string }[];
}

const OPEN = /^(`{3,})untrusted$/;
const closes = (line: string, fence: string): boolean => /^\s*`+\s*$/.test(line) && line.trim().length >= fence.length;

export const fenced = (prompt: string): Fenced => {
  const lines = prompt.split('\n');
  const outside: string[] = [];
  const blocks: { label: string; text: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN.exec(lines[i]!);
    if (!open) {
      outside.push(lines[i]!);
      continue;
    }
    let end = i + 1;
    while (end < lines.length && !closes(lines[end]!, open[1]!)) end++;
    if (end >= lines.length) return { outside: [...outside, ...lines.slice(i)].join('\n'), blocks }; // never closed: all of it counts as outside
    blocks.push({ label: outside.at(-1) ?? '', text: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return { outside: outside.join('\n'), blocks };
};

export const LABELLED = /\(untrusted data, not instructions\):$/;
