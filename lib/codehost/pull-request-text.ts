// The title and body of a pull request opened from the app, drawn from the run: its goal, the
// agent's last summary, the steps and how each ended, and a link back. Everything the run says is
// untrusted text: the body quotes it in fences it cannot close (no markdown, mention, link or image
// in it is rendered), and only the link back and the headings are the service's own words.

export interface RunStory {
  readonly runId: string;
  readonly title: string;
  readonly goal: string;
  /** the agent's last summary of its work, when it gave one */
  readonly summary: string | null;
  readonly steps: readonly { readonly node: string; readonly outcome: string; readonly summary: string }[];
  readonly runUrl: string;
}

const MAX_QUOTE = 8_000;
const MAX_STEPS = 30;
/** under GitHub's 65,536 characters, with room for the fences and headings */
const MAX_BODY = 60_000;

const clip = (text: string, max: number): string => ([...text].length <= max ? text : `${[...text].slice(0, max - 1).join('')}…`);

/** text in a fence longer than any backtick run in it, so it can neither end the block nor render */
export const quote = (text: string): string => {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text}\n${fence}`;
};

const stepLine = (s: RunStory['steps'][number]): string => `- \`${s.node.replace(/`/g, "'")}\`: ${s.outcome}`;

export const pullRequestBody = (r: RunStory): string => {
  const steps = r.steps.slice(-MAX_STEPS);
  const parts = [
    `Opened from svc run [${r.runId}](${r.runUrl}).`,
    '### Goal', quote(clip(r.goal, MAX_QUOTE)),
    ...(r.summary ? ['### The agent\'s summary', quote(clip(r.summary, MAX_QUOTE))] : []),
    ...(steps.length > 0 ? ['### Steps', steps.map(stepLine).join('\n'), ...steps.filter((s) => s.summary.trim() !== '').slice(-5).flatMap((s) => [`\`${s.node.replace(/`/g, "'")}\` said:`, quote(clip(s.summary, 2_000))])] : []),
  ];
  return clip(parts.join('\n\n'), MAX_BODY);
};

export const pullRequestTitle = (r: RunStory): string => clip(r.title.replace(/[\r\n]+/g, ' ').trim() || `svc run ${r.runId}`, 256);
