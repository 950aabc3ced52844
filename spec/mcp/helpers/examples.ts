// For every tool: arguments that decode, and bad arguments with the text the refusal must carry.
// `shape: true` marks bad arguments that the codec (and so the advertised JSON Schema) rejects;
// the others are well-formed but refused by the tool's own argument rules.

export interface Bad { readonly args: unknown; readonly text: RegExp; readonly shape: boolean }
export interface Examples { readonly valid: readonly Record<string, unknown>[]; readonly bad: readonly Bad[] }

const bad = (args: unknown, text: RegExp, shape = true): Bad => ({ args, text, shape });
const missingRun = bad({}, /run: is required/);
const blankRun = bad({ run: '  ' }, /run: must be a non-blank string/);
const extra = (valid: Record<string, unknown>) => bad({ ...valid, runId: 'x' }, /unknown argument: runId/);
const runOnly = (): Examples => ({
  valid: [{ run: 'r1' }, { run: 'r1', reason: 'because' }],
  bad: [missingRun, blankRun, bad({ run: 7 }, /run: must be a non-blank string.*got 7/), extra({ run: 'r1' })],
});
const pages = (): Examples => ({
  valid: [{ run: 'r1' }, { run: 'r1', pageSize: 1 }, { run: 'r1', pageSize: 200, before: 5 }],
  bad: [missingRun, bad({ run: 'r1', pageSize: 0 }, /pageSize: must be an integer from 1 to 200 \(got 0\)/),
    bad({ run: 'r1', pageSize: 201 }, /pageSize/), bad({ run: 'r1', pageSize: 2.5 }, /pageSize/),
    bad({ run: 'r1', pageSize: '10' }, /pageSize/), bad({ run: 'r1', before: -1 }, /before: must be a non-negative integer/), bad({ run: 'r1', before: 'x' }, /before/)],
});
const projectWorkflow = (): Examples => ({
  valid: [{ project: 'p1', workflow: 'default' }],
  bad: [bad({ project: 'p1' }, /workflow: is required/), bad({ workflow: 'default' }, /project: is required/), bad({ project: 'p1', workflow: '' }, /workflow/)],
});

export const EXAMPLES: Readonly<Record<string, Examples>> = {
  list_runs: {
    valid: [{}, { standing: 'Running' }, { project: 'Demo' }, { standing: 'Aborted', project: 'p1' }],
    bad: [bad({ standing: 'running' }, /standing: must be one of Created, Queued/), bad({ project: 3 }, /project/), bad({ limit: 3 }, /unknown argument: limit/)],
  },
  get_run: runOnly(),
  list_projects: { valid: [{}], bad: [bad({ project: 'p1' }, /unknown argument: project/)] },
  list_workers: { valid: [{}], bad: [bad({ worker: 'w1' }, /unknown argument: worker/)] },
  read_run_thread: {
    valid: [{ run: 'r1' }, { run: 'r1', before: '12', pageSize: 200 }],
    bad: [missingRun, bad({ run: 'r1', pageSize: 0 }, /pageSize/), bad({ run: 'r1', before: 3 }, /before: must be a cursor that read_run_thread returned/), bad({ run: 'r1', before: '0x1' }, /before: must be a cursor that read_run_thread returned \(got "0x1"\)/)],
  },
  read_run_history: pages(),
  read_run_log: pages(),
  export_run: runOnly(),
  list_workflows: { valid: [{ project: 'p1' }], bad: [bad({}, /project: is required/), bad({ project: ['p1'] }, /project/)] },
  read_workflow: projectWorkflow(),
  validate_workflow: projectWorkflow(),
  wait_for_run: {
    valid: [{ run: 'r1' }, { run: 'r1', timeout: 0 }, { run: 'r1', timeout: 300 }],
    bad: [missingRun, bad({ run: 'r1', timeout: 301 }, /timeout: must be an integer from 0 to 300/), bad({ run: 'r1', timeout: -1 }, /timeout/), bad({ run: 'r1', timeout: '60' }, /timeout/)],
  },
  read_pull_request: {
    valid: [{ run: 'r1' }, { run: 'r1', number: 4 }, { project: 'p1', number: 4 }],
    bad: [bad({ number: 0 }, /number: must be a positive integer/), bad({ run: 'r1', number: 1.5 }, /number/),
      bad({}, /name a run, or a project with a number/, false), bad({ project: 'p1' }, /a project needs a pull request number/, false)],
  },
  read_run_worktree: runOnly(),
  read_pull_request_draft: {
    valid: [{ run: 'r1' }, { run: 'r1', reason: 'to edit it' }],
    bad: [missingRun, blankRun, extra({ run: 'r1' }), bad({ run: 'r-none' }, /unknown run: r-none/, false)],
  },
  read_usage: {
    valid: [{}, { from: '2026-03-01', to: '2026-03-31', groupBy: 'run', limit: 5 }, { groupBy: 'day', split: 'harness' }],
    bad: [bad({ from: '2026-3-1' }, /from: must be a day written YYYY-MM-DD \(got "2026-3-1"\)/), bad({ to: '2026-02-30' }, /to: must be a day written YYYY-MM-DD/),
      bad({ groupBy: 'week' }, /groupBy: must be one of day, project, harness, model, workflow, run/), bad({ split: 'day' }, /split: must be one of project, harness/),
      bad({ limit: 0 }, /limit: must be a whole number from 1 to 10000 \(got 0\)/), bad({ limit: 2.5 }, /limit/), bad({ limit: '5' }, /limit: must be a whole number from 1 to 10000 \(got "5"\)/), bad({ from: 20260301 }, /from: must be a day/),
      bad({ since: '2026-03-01' }, /unknown argument: since/),
      bad({ from: '2026-03-05', to: '2026-03-01' }, /^from \(2026-03-05\) is after to \(2026-03-01\)$/, false),
      bad({ groupBy: 'run', split: 'harness' }, /^split is for groupBy=day only \(groupBy is run\)$/, false)],
  },
  start_run: {
    valid: [{ project: 'p1', goal: 'fix it' },
      { project: 'p1', goal: 'fix it', workflow: 'ticket', inputs: { ticket_url: 'https://x/1' }, title: 'Fix it', harness: 'codex', model: 'gpt-5', reason: 'asked' },
      { project: 'p1', goal: 'fix it', attempts: [{ harness: 'claude' }, { harness: 'codex', model: 'gpt-5' }] }],
    bad: [bad({ goal: 'x' }, /project: is required/), bad({ project: 'p1' }, /goal: is required/), bad({ project: 'p1', goal: ' \n' }, /goal: must be a non-blank/),
      bad({ project: 'p1', goal: 'g', title: 'x'.repeat(81) }, /title: must be a non-blank one-line string of at most 80/),
      bad({ project: 'p1', goal: 'g', title: 'a\nb' }, /title/), bad({ project: 'p1', goal: 'g', harness: 'gemini' }, /harness: must be one of claude, codex, opencode/),
      bad({ project: 'p1', goal: 'g', inputs: { n: 1 } }, /inputs\.n: must be a string \(got 1\)/), bad({ project: 'p1', goal: 'g', start: false }, /unknown argument: start/),
      bad({ project: 'p1', goal: 'g', attempts: [{ harness: 'gemini' }, { harness: 'codex' }] }, /attempts\.0\.harness: must be one of claude, codex, opencode/),
      bad({ project: 'p1', goal: 'g', attempts: [{ harness: 'claude' }] }, /attempts must list 2 to 6 agents \(got 1\)/, false),
      bad({ project: 'p1', goal: 'g', harness: 'claude', attempts: [{ harness: 'claude' }, { harness: 'codex' }] }, /attempts cannot be given together with harness or model/, false)],
  },
  follow_up_run: {
    valid: [{ run: 'r1', text: '[report:success]' }, { run: 'r1', text: 'go on [report:success]', reason: 'asked' }],
    bad: [bad({ text: 'go on' }, /run: is required/), bad({ run: 'r1' }, /text: is required/), bad({ run: 'r1', text: ' ' }, /text: must be a non-blank string/),
      bad({ run: 'r1', text: 'go on', goal: 'x' }, /unknown argument: goal/)],
  },
  // at 1 is the run's RunCreated; the tools test puts a real step end there (realArgs)
  fork_run: {
    valid: [{ run: 'r1', at: 1 }, { run: 'r1', at: 1, goal: 'another way [report:success]', harness: 'claude', model: 'm', note: 'try again', reason: 'asked' }],
    bad: [bad({ at: 3 }, /run: is required/), bad({ run: 'r1' }, /at: is required/), bad({ run: 'r1', at: 0 }, /at: must be the seq of a step end/),
      bad({ run: 'r1', at: 3, goal: ' ' }, /goal: must be a non-blank/), bad({ run: 'r1', at: 3, text: 'x' }, /unknown argument: text/)],
  },
  move_run: {
    valid: [{ run: 'r1', to: 'here' }, { run: 'r1', to: 'here', reason: 'its worker is away' }],
    bad: [bad({ to: 'here' }, /run: is required/), bad({ run: 'r1' }, /to: is required/), bad({ run: 'r1', to: 5 }, /to: must be a string/),
      bad({ run: 'r1', to: 'W!' }, /a worker id is w followed by lowercase letters and digits/, false), bad({ runId: 'r1', to: 'here' }, /unknown argument: runId/),
      bad({ run: 'r-none', to: 'here' }, /unknown run: r-none/, false)],
  },
  control_run: {
    valid: [{ run: 'r1', position: 'p1', action: 'Pause' }, { run: 'r1', position: 'p1', action: 'ChangeHarness', harness: 'codex', reason: 'quota' },
      { run: 'r1', position: 'p1', action: 'Jump', node: 'review' }],
    bad: [bad({ run: 'r1', action: 'Pause' }, /position: is required/), bad({ run: 'r1', position: 'p1', action: 'Explode' }, /action: must be one of Pause, Resume/),
      bad({ run: 'r1', position: 'p1', action: 'ChangeHarness' }, /ChangeHarness needs harness/, false),
      bad({ run: 'r1', position: 'p1', action: 'ChangeHarness', harness: 'codex', model: 'o3' }, /model is unsupported/, false),
      bad({ run: 'r1', position: 'p1', action: 'Jump' }, /Jump needs node/, false),
      bad({ run: 'r1', position: 'p1', action: 'Pause', harness: 'codex' }, /harness is only for ChangeHarness/, false),
      bad({ run: 'r1', position: 'p1', action: 'Pause', node: 'x' }, /node is only for Jump/, false)],
  },
  revise_goal: {
    valid: [{ run: 'r1', goal: 'new goal' }],
    bad: [bad({ run: 'r1' }, /goal: is required/), bad({ run: 'r1', goal: '' }, /goal: must be a non-blank/)],
  },
  secure_run_work: runOnly(),
  open_pull_request: {
    valid: [{ run: 'r1' }, { run: 'r1', draft: true, base: 'main', title: 'Ship it', body: 'Why: see the run.' }],
    bad: [missingRun, bad({ run: 'r1', base: '-x' }, /base: must be a branch name \(got "-x"\)/), bad({ run: 'r1', base: 'a..b' }, /base: must be a branch name/),
      bad({ run: 'r1', draft: 'yes' }, /draft: must be true or false/), bad({ run: 'r1', title: 'a\nb' }, /title: must be a non-blank one-line string/),
      bad({ run: 'r1', body: ' ' }, /body: must be a non-blank string/), extra({ run: 'r1' })],
  },
  merge_run: {
    valid: [{ run: 'r1', method: 'fast-forward' }, { run: 'r1', method: 'squash', reason: 'reviewed' }],
    bad: [bad({ method: 'merge' }, /run: is required/), bad({ run: 'r1' }, /method: is required/),
      bad({ run: 'r1', method: 'rebase' }, /method: must be one of fast-forward, merge, squash \(got "rebase"\)/), extra({ run: 'r1', method: 'merge' }),
      bad({ run: 'r-none', method: 'merge' }, /unknown run: r-none/, false)],
  },
  update_run_from_base: {
    valid: [{ run: 'r1', mode: 'merge' }, { run: 'r1', mode: 'rebase', onConflict: 'leave', reason: 'main moved' }],
    bad: [bad({ run: 'r1' }, /mode: is required/), bad({ run: 'r1', mode: 'squash' }, /mode: must be one of merge, rebase \(got "squash"\)/),
      bad({ run: 'r1', mode: 'merge', onConflict: 'ask' }, /onConflict: must be one of agent, leave/), extra({ run: 'r1', mode: 'merge' })],
  },
  check_pull_request_now: {
    valid: [{ run: 'r1' }, { run: 'r1', reason: 'pushed a fix' }],
    bad: [missingRun, blankRun, extra({ run: 'r1' }), bad({ run: 'r-none' }, /unknown run: r-none/, false)],
  },
  message_run: {
    valid: [{ run: 'r1', text: 'hi', delivery: 'Resume' }, { run: 'r1', text: 'later', delivery: 'Hold', reason: 'r' }],
    bad: [bad({ run: 'r1', text: '   ', delivery: 'Hold' }, /text: must be a non-blank string/), bad({ run: 'r1', text: 'hi' }, /delivery: is required/),
      bad({ run: 'r1', text: 'hi', delivery: 'Now' }, /delivery: must be one of Resume, Hold/)],
  },
  submit_review: {
    valid: [{ run: 'r1', comments: [{ path: 'review.txt', side: 'new', line: 1, body: 'Say more.' }] },
      { run: 'r1', comments: [{ path: 'review.txt', side: 'new', line: 1, endLine: 1, body: 'Say more.' }], summary: 'Fine otherwise.', reason: 'r' }],
    bad: [bad({ run: 'r1' }, /comments: is required/), bad({ run: 'r1', comments: [] }, /a review needs at least one comment/, false),
      bad({ run: 'r1', comments: [{ path: 'a', side: 'left', line: 1, body: 'b' }] }, /side: must be one of new, old/),
      bad({ run: 'r1', comments: [{ path: 'a', side: 'new', line: 1 }] }, /body: is required/)],
  },
  answer_question: {
    valid: [{ run: 'r1', question: 'q1', answer: 'text' }, { run: 'r1', question: 'q1', answer: ['a', 'b'] }],
    bad: [bad({ run: 'r1', question: 'q1' }, /answer: is required/), bad({ run: 'r1', question: 'q1', answer: 3 }, /answer: must be a string or an array of strings \(got 3\)/),
      bad({ run: 'r1', question: 'q1', answer: ['a', 2] }, /answer\.1: must be a string \(got 2\)/), bad({ run: 'r1', answer: 'x' }, /question: is required/)],
  },
  archive_run: {
    valid: [{ run: 'r1', state: 'Archived' }, { run: 'r1', state: 'Active' }],
    bad: [bad({ run: 'r1' }, /state: is required/), bad({ run: 'r1', state: 'Deleted' }, /state: must be one of Archived, Active/)],
  },
  resolve_run: runOnly(),
  keep_attempt: {
    valid: [{ run: 'r1' }, { run: 'r1', abortOthers: true, reason: 'the better diff' }],
    bad: [missingRun, blankRun, bad({ run: 'r1', abortOthers: 'yes' }, /abortOthers: must be true or false \(got "yes"\)/), extra({ run: 'r1' })],
  },
  start_preview: runOnly(),
  stop_preview: runOnly(),
  get_preview: {
    valid: [{ run: 'r1' }],
    bad: [missingRun, blankRun, bad({ run: 'r1', reason: 'x' }, /unknown argument: reason/)],
  },
  set_project_preview: {
    valid: [{ project: 'p1', preview: null }, { project: 'p1', preview: { argv: ['npm', 'run', 'dev'], setup: ['npm', 'install'], portEnv: 'PORT' } }],
    bad: [bad({ preview: null }, /project: is required/), bad({ project: 'p1' }, /preview: is required/),
      bad({ project: 'p1', preview: { argv: 'npm run dev' } }, /preview\.argv: must be an argv/), bad({ project: 'p1', preview: { argv: [] } }, /preview\.argv/, false),
      bad({ project: 'p1', preview: { argv: ['node'], portEnv: '1PORT' } }, /preview\.portEnv: must be an environment variable name/, false),
      bad({ project: 'p1', preview: { argv: ['node'], setup: 'npm install' } }, /preview\.setup/), bad({ project: 'p1', preview: { argv: ['node'], shell: true } }, /preview: must be \(a JSON object \| null\)/)],
  },
  change_setting: {
    valid: [{ change: { _tag: 'RunCap', cap: { _tag: 'Chosen', value: 4 } } }, { change: { _tag: 'McpToolGroup', group: 'archiving', enabled: true } },
      { change: { _tag: 'CodeHost', graphqlUrl: 'https://ghe.example/api/graphql', webHost: 'ghe.example' } }],
    bad: [bad({}, /change: is required/), bad({ change: { _tag: 'Nope' } }, /change: must be an object whose _tag is one of RunCap, McpEndpoint/), bad({ change: { _tag: 'McpToolGroup', group: 'everything', enabled: true } }, /change\.group: must be .*"archiving"/),
      bad({ change: { _tag: 'RunCap', cap: { _tag: 'Chosen', value: 'four' } } }, /change\.cap\.value: must be an integer/), bad({ change: 'RunCap=4' }, /change/)],
  },
};
