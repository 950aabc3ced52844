import { join } from 'node:path';
import { fixtureRepository, type GitHubFixture } from '../fixtures/github/fixture.js';
import { startGitHubServer } from '../fixtures/github/server.js';
import { WEB, git, githubOrigin } from './code-host-origin.js';
import { eventually, repoRoot, tempDir, writtenJsonLines } from './env.js';
import { testServer, type TestServer } from './server.js';
import { history, untilStanding } from './steer.js';

// What the "needs you" specs share (issue 29, part 2): two plain agent steps, a delivering loop of one
// cycle, the notification command's recorder, and the walk that spends the loop's cycle so svc
// pauses the run at its limit.

/** two agent steps that each run the goal's script: a budget or a harness problem pauses between them */
export const TWO = `digraph two {
  start [kind=start]
  one   [kind=agent, prompt="{{goal}}"]
  two   [kind=agent, prompt="{{goal}}"]
  done  [kind=exit]
  start -> one -> two -> done
}`;

/** work, then a pull request watched for one cycle of fixes */
export const LOOP = `digraph loop {
  start [kind=start]
  work  [kind=agent, prompt="{{goal}}"]
  ship  [kind=deliver, watch=true, cycles=1]
  done  [kind=exit]
  start -> work -> ship -> done
}`;

const RECORD = join(repoRoot, 'spec/fixtures/notify/record.mjs');

/** what the recording notification command received, one object per call it has finished writing down */
export const notifyCalls = (file: string): any[] => writtenJsonLines(file).map((l) => JSON.parse(l.stdin));

export const setting = async (s: TestServer, change: Record<string, unknown>): Promise<void> => {
  const r = await s.send('PUT', '/api/settings', JSON.stringify(change));
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
};

/** sets the notification command to the recorder for `kinds`; the file its calls land in */
export const recordNotifications = async (s: TestServer, kinds: readonly string[]): Promise<string> => {
  const out = join(tempDir('svc-notify-'), 'calls.jsonl');
  await setting(s, { _tag: 'NotifyCommand', argv: [process.execPath, RECORD, out], kinds });
  return out;
};

export interface LoopHost { readonly server: TestServer; readonly fixture: GitHubFixture; readonly bare: string; close(): Promise<void> }

/** a server whose project's origin is on the GitHub stand-in, with the LOOP workflow; `origin` reused when given */
export const loopHost = async (origin: { bare: string; work: string } = githubOrigin()): Promise<LoopHost> => {
  const fixture: GitHubFixture = { webHost: WEB, tokens: ['tok'], repositories: [fixtureRepository('acme', 'app')] };
  const gh = await startGitHubServer(fixture);
  const server = await testServer({ repo: origin.work, workflows: { loop: LOOP } });
  await setting(server, { _tag: 'CodeHost', graphqlUrl: gh.graphqlUrl, webHost: WEB });
  await setting(server, { _tag: 'CodeHostToken', token: 'tok' });
  await setting(server, { _tag: 'PullRequestWatchInterval', seconds: 3600 });
  return { server, fixture, bare: origin.bare, close: async () => { await server.close(); await gh.close(); } };
};

/** checks fail twice on the run's pull request #number: one cycle of fixes, then the limit (svc pauses the run) */
export const spendTheCycle = async (host: LoopHost, runId: string, number: number): Promise<void> => {
  const { server, fixture, bare } = host;
  const prs = fixture.repositories[0]!.pullRequests;
  const failing = (name: string) => {
    const i = prs.findIndex((p) => p.number === number);
    prs[i] = { ...prs[i]!, headRefOid: git(bare, 'rev-parse', `svc/${runId}`), contexts: [{ __typename: 'CheckRun', name, status: 'COMPLETED', conclusion: 'FAILURE', required: true, text: 'no' }] };
  };
  failing('lint');
  await server.post(`/api/runs/${runId}/pull-request/check`, {});
  await eventually(() => history(server, runId), (h) => h.some((e) => e.type === 'PullRequestCycleEnded'), 60_000);
  await untilStanding(server, runId, 'Waiting', 60_000);
  failing('test');
  await server.post(`/api/runs/${runId}/pull-request/check`, {});
};
