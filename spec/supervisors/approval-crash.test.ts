import '../helpers/env.js';
import test from 'ava';
import { appendChat } from '../../lib/supervisors/chat.js';
import { testServer } from '../helpers/server.js';

// A person's Approve is recorded before the call is carried out. When the server stops in the
// middle (given: the card and the ApprovalCarryingOut entry, and no decision), the next start
// records the decision as Interrupted: the person's word is not lost, and the card is not offered
// again to be carried out twice.

test('an approval cut off by a stop is recorded as Interrupted on the next start', async (t) => {
  const first = await testServer();
  await first.send('PUT', '/api/settings', JSON.stringify({ _tag: 'Supervisors', enabled: true }), { 'content-type': 'application/json' });
  const at = new Date().toISOString();
  appendChat(first.service.core.journal, 'global', [
    { type: 'ApprovalRequested', data: { cardId: 'c1', tool: 'resolve_run', run: 'r-x', args: { run: 'r-x', reason: 'tidy' }, reason: 'tidy' } },
    { type: 'ApprovalCarryingOut', data: { cardId: 'c1', sender: 'Ada', note: 'go' } },
  ], at);
  const during = (await first.send('POST', '/api/supervisors/global/approvals/c1', JSON.stringify({ decision: 'Deny' }), { 'content-type': 'application/json' }));
  t.is(during.status, 409);
  t.regex(during.body.detail, /being carried out/);
  await first.close();

  const again = await testServer({ home: first.home, repo: first.repo });
  try {
    const cards = (await again.get('/api/supervisors/global/approvals')).body.approvals;
    t.like(cards[0], { card: 'c1', decided: { decision: 'Approve', sender: 'Ada', note: 'go', result: 'Interrupted' } });
    t.is((await again.send('POST', '/api/supervisors/global/approvals/c1', JSON.stringify({ decision: 'Approve' }), { 'content-type': 'application/json' })).status, 200);
    const decided = again.service.core.journal.read('supervisor-chat:global').filter((e) => e.type === 'ApprovalDecided');
    t.is(decided.length, 1, 'decided once, not carried out again');
  } finally {
    await again.close();
  }
});
