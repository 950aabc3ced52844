import '../helpers/env.js';
import { untrusted } from '../../lib/untrusted.js';
import test from 'ava';
import { isLeft } from 'fp-ts/lib/Either.js';
import { closeService, openService } from '../../lib/root/open.js';
import type { Service } from '../../lib/root/service.js';
import { eventually, freshHome, gitRepo, writeWorkflow } from '../helpers/env.js';
import { LINEAR } from '../helpers/server.js';
import { fixturePullRequest, fixtureRepository, type GitHubFixture } from '../fixtures/github/fixture.js';
import { startGitHubServer } from '../fixtures/github/server.js';
import { ManualClock } from '../fixtures/triggers/manual-clock.js';

// A CodeHost rule polling the GitHub test server (built from GitHub's published schema; every
// document is validated against it): an issue that gains the label and a `/svc` pull request
// comment each start one run; after closing and reopening the service on the same home, the
// same events polled again start nothing. The host's rate-limit budget moves the next poll.

delete process.env['GH_TOKEN'];
const home = freshHome();
writeWorkflow(home, 'linear', LINEAR);
const repo = gitRepo();
const web = 'github.test';
const widgets = fixtureRepository('acme', 'widgets', [fixturePullRequest({ owner: 'acme', name: 'widgets' }, web, { number: 3, title: 'Faster export' })]);
const fixture: GitHubFixture = { webHost: web, tokens: ['t0k'], repositories: [widgets] };

const open = async (at: Date) => {
  const clock = new ManualClock(at);
  const service = await openService({ home, clock });
  return { clock, service, triggers: service.triggers };
};
const runsOf = (service: Service) => [...service.core.runs.all()].sort((a, b) => (a.runId < b.runId ? -1 : 1));
const statusOf = (service: Service, id: string) => (service.triggers.get(id) as any).right.status;
const polledAfter = (service: Service, id: string, clock: ManualClock, since: number) =>
  eventually(() => ({ s: statusOf(service, id), n: clock.sleeping }), (x) => x.n === 1 && x.s._tag === 'Watching' && /^polled/.test(x.s.detail) && Date.parse(/at (\S+);/.exec(x.s.detail)![1]!) >= since);

const labelIssue = (at: Date) => {
  const t = (ms: number) => new Date(at.getTime() + ms).toISOString();
  widgets.issues!.push({
    number: 7, title: 'Export drops {{goal}} rows', body: 'Steps: export twice.', url: `https://${web}/acme/widgets/issues/7`, author: 'maria', updatedAt: t(1000), labels: ['svc', 'bug'],
    // labeled before the rule existed (must not fire), then again after
    labeled: [{ id: 'LE_old', createdAt: t(-3_600_000), label: 'svc' }, { id: 'LE_new', createdAt: t(1000), label: 'svc' }, { id: 'LE_bug', createdAt: t(1000), label: 'bug' }],
  });
  widgets.pullRequests[0]!.comments!.push(
    { id: 'IC_go', body: '/svc please rebase', createdAt: t(1000), url: `https://${web}/acme/widgets/pull/3#issuecomment-1`, author: 'li' },
    { id: 'IC_quoted', body: 'do not run /svc yet', createdAt: t(1000), url: `https://${web}/acme/widgets/pull/3#issuecomment-2`, author: 'li' },
    { id: 'IC_other', body: '/svcx no', createdAt: t(1000), url: `https://${web}/acme/widgets/pull/3#issuecomment-3`, author: 'li' },
  );
};

test.serial('a labeled issue and a /svc comment start one run each, and exactly one across a restart', async (t) => {
  widgets.issues = [];
  widgets.pullRequests[0] = { ...widgets.pullRequests[0]!, comments: [] };
  const gh = await startGitHubServer(fixture);
  t.teardown(() => gh.close());
  const start = new Date();
  let { clock, service, triggers } = await open(start);
  const p = await service.addProject('demo', [{ path: repo }]);
  if (isLeft(p)) throw new Error(JSON.stringify(p.left));
  service.changeSetting({ _tag: 'CodeHost', graphqlUrl: gh.graphqlUrl, webHost: web }, { via: 'cli', sender: 'test' });
  service.changeSetting({ _tag: 'CodeHostToken', token: 't0k' }, { via: 'cli', sender: 'test' });
  const created = triggers.create({
    name: 'svc label', project: 'demo', workflow: 'linear', source: { _tag: 'CodeHost', repository: 'acme/widgets', label: 'svc', command: '/svc' },
    goal: 'Work on {{event.title}} ({{event.args}})', inputs: { ticket: '{{event.url}}' },
  });
  if (isLeft(created)) throw new Error(JSON.stringify(created.left));
  const id = created.right.rule.id;
  await polledAfter(service, id, clock, start.getTime());
  t.is(runsOf(service).length, 0);

  labelIssue(start);
  clock.set(new Date(start.getTime() + 60_000));
  const runs = await eventually(() => runsOf(service), (rs) => rs.length === 2 && rs.every((r) => r.lifecycle === 'ended'), 30_000);
  const issueRun = runs.find((r) => r.views.board.startedBy?.event.kind === 'IssueLabeled')!;
  const commentRun = runs.find((r) => r.views.board.startedBy?.event.kind === 'PullRequestComment')!;
  t.deepEqual(issueRun.views.board.startedBy, {
    rule: { id, name: 'svc label' },
    event: { kind: 'IssueLabeled', id: 'LE_new', summary: 'acme/widgets#7 labeled svc: Export drops {{goal}} rows', url: `https://${web}/acme/widgets/issues/7` },
  });
  // text from the host is data: never expanded, and fenced as untrusted in the goal (the agent's prompt)
  t.is(issueRun.goal, `Work on ${untrusted("the event's title", 'Export drops {{goal}} rows')} ({{event.args}})`);
  t.is(issueRun.inputs['ticket'], `https://${web}/acme/widgets/issues/7`);
  t.like(commentRun.views.board.startedBy, { event: { kind: 'PullRequestComment', id: 'IC_go', url: `https://${web}/acme/widgets/pull/3#issuecomment-1` } });
  t.is(commentRun.goal, `Work on ${untrusted("the event's title", 'Faster export')} (${untrusted("the event's args", 'please rebase')})`);
  await closeService(service);

  // the same events, polled again by a reopened service on the same home
  const later = new Date(start.getTime() + 120_000);
  ({ clock, service, triggers } = await open(later));
  const polls = gh.received.length;
  await polledAfter(service, id, clock, later.getTime());
  t.true(gh.received.length > polls);
  t.is(runsOf(service).length, 2);
  const events = triggers.events(id, 50);
  if (isLeft(events)) throw new Error('no events');
  t.deepEqual(events.right.events.map((e) => e.id).sort(), ['IC_go', 'LE_new']);
  t.deepEqual(gh.invalid, []);

  // a nearly spent budget: the next poll waits for the host's reset, not the interval
  const reset = new Date(later.getTime() + 3_600_000);
  fixture.rateLimit = { remaining: 3, resetAt: reset.toISOString() };
  clock.set(new Date(later.getTime() + 60_000));
  const s = await eventually(() => statusOf(service, id), (x) => /\(3 requests left\)/.test(x.detail ?? ''));
  t.regex(s.detail, new RegExp(`next poll at ${reset.toISOString().replace('.000', '\\.000')}`));
  fixture.rateLimit = undefined;
  await closeService(service);
});

test.serial('a source that cannot work is shown failing on its rule, with the reason', async (t) => {
  const { service, triggers } = await open(new Date());
  t.teardown(() => closeService(service));
  service.changeSetting({ _tag: 'CodeHostToken', token: '' }, { via: 'cli', sender: 'test' });
  const rule = triggers.create({ name: 'no token', project: 'demo', workflow: 'linear', source: { _tag: 'CodeHost', repository: 'acme/widgets', label: 'svc' }, goal: 'x' });
  if (isLeft(rule)) throw new Error(JSON.stringify(rule.left));
  const s = await eventually(() => statusOf(service, rule.right.rule.id), (x) => x._tag === 'Failing');
  t.regex(s.reason, /no code host token/);
  service.changeSetting({ _tag: 'CodeHostToken', token: 't0k' }, { via: 'cli', sender: 'test' });
  service.changeSetting({ _tag: 'CodeHost', graphqlUrl: 'http://127.0.0.1:9/graphql', webHost: web }, { via: 'cli', sender: 'test' });
  const down = triggers.create({ name: 'host down', project: 'demo', workflow: 'linear', source: { _tag: 'CodeHost', repository: 'acme/widgets', command: '/svc' }, goal: 'x' });
  if (isLeft(down)) throw new Error(JSON.stringify(down.left));
  const d = await eventually(() => statusOf(service, down.right.rule.id), (x) => x._tag === 'Failing');
  t.regex(d.reason, /could not reach the code host/);
  t.true(triggers.list().length >= 3);
});
