import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import type { ReviewComment, RunEvent } from '../journal/run-events.js';
import type { RunDecideState } from '../projections/run-decide-state.js';
import type { CommandContext } from './context.js';
import { byAndWhy } from './context.js';
import { nothing, readable, type Decision } from './guards.js';
import { conflict, ended } from './refusal.js';
import { decideResume } from './resume.js';
import { decideJump } from './jump.js';
import { sendBackRoute } from './send-back.js';
import { decideSendMessage } from './send-message.js';

export interface SubmitReview extends CommandContext {
  readonly reviewId: string;
  readonly messageId: string;
  /** each with the code it quotes, read from the diff when submitted */
  readonly comments: readonly ReviewComment[];
  readonly summary?: string;
  /** the message the agent receives (lib/service/review-message.ts) */
  readonly text: string;
}

// A review is recorded, then sent as one message with delivery Resume: the same path as
// message_run (into a live turn, held for the step's session, or resuming a paused run). At a gate
// the review is the person's answer, as the app's "Send back": the message opens the turn of the agent
// step the gate leads to (Resume), or else of the agent step the run came from (Jump back to it).
// An ended run takes no messages: a review for it is a follow-up (a new run continuing this one),
// made first by the service and recorded here with the review (decideRecordFollowUpReview).
export const decideSubmitReview = (s: RunDecideState, c: SubmitReview): Decision => {
  const blocked = readable(s, 'submit_review');
  if (blocked) return left(blocked);
  if (s.reviewIds?.includes(c.reviewId)) return nothing();
  if (s.lifecycle === 'ended') return left(ended(`the run has ended (${s.ending}); a review of it is sent as a follow-up run`));
  const sent = decideSendMessage(s, { ...c, delivery: 'Resume' });
  if (isLeft(sent)) return sent;
  const reviewed = reviewEvent(c);
  const tagged = sent.right.map((e): RunEvent => (e.type === 'MessageSent' ? { ...e, data: { ...e.data, review: c.reviewId } } : e));
  const gate = s.lifecycle === 'active' && s.step?.kind === 'gate' ? sendBack(s, c) : right([]);
  if (isLeft(gate)) return gate;
  return right([reviewed, ...tagged, ...gate.right]);
};

const sendBack = (s: RunDecideState, c: CommandContext): Decision => {
  const route = sendBackRoute(s);
  if (route?.how === 'Resume') return decideResume(s, c);
  if (route?.how === 'Jump') return decideJump(s, { ...c, node: route.to });
  return left(conflict(`the gate ${s.step!.node} leads to no agent step and the run did not come from one: no agent would read the review`));
};

const reviewEvent = (c: SubmitReview, followUp?: string): RunEvent => ({
  type: 'ReviewSubmitted',
  data: {
    reviewId: c.reviewId, messageId: c.messageId, comments: [...c.comments],
    ...(c.summary !== undefined ? { summary: c.summary } : {}), ...(followUp !== undefined ? { followUp } : {}), ...byAndWhy(c),
  },
});

/** An ended run's review, after the follow-up run that carries it was made: recorded, and sent no message here. */
export const decideRecordFollowUpReview = (s: RunDecideState, c: SubmitReview & { readonly followUp: string }): Decision => {
  if (s.reviewIds?.includes(c.reviewId)) return nothing();
  return s.lifecycle === 'ended' ? right([reviewEvent(c, c.followUp)]) : left(conflict('the run is going again: send the review to it'));
};
