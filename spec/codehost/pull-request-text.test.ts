import test from 'ava';
import { pullRequestBody, pullRequestTitle, quote } from '../../lib/codehost/pull-request-text.js';

// A pull request's body from the run: the run's words are quoted in fences they cannot close.

const story = { runId: 'r1', title: 'Fix it', goal: 'g', summary: null, steps: [], runUrl: 'http://127.0.0.1:1/runs/r1' };

test('a quote\'s fence is longer than any backtick run in the text', (t) => {
  t.is(quote('plain'), '```text\nplain\n```');
  t.is(quote('a ````` b'), '``````text\na ````` b\n``````');
});

test('the body links back, quotes goal and summary, lists the steps; the title is one line', (t) => {
  const body = pullRequestBody({ ...story, goal: 'Do @x\n```\n# not a heading', summary: 'done it', steps: [{ node: 'work', outcome: 'succeeded', summary: 'wrote `a`' }, { node: 'we`ird', outcome: 'failed', summary: '' }] });
  t.true(body.startsWith('Opened from svc run [r1](http://127.0.0.1:1/runs/r1).'));
  t.true(body.includes('````text\nDo @x\n```\n# not a heading\n````'));
  t.true(body.includes('```text\ndone it\n```'));
  t.true(body.includes("- `work`: succeeded\n- `we'ird`: failed"));
  t.true(body.includes('`work` said:\n\n```text\nwrote `a`\n```'));
  t.is(pullRequestTitle({ ...story, title: 'two\nlines' }), 'two lines');
  t.true([...pullRequestBody({ ...story, goal: 'x'.repeat(100_000) })].length < 65_536);
});
