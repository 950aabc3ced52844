import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { ApprovalCard } from '../projections/approvals.js';
import { conflict, notFound, type Refusal } from './refusal.js';

// A person's decision on an approval card ("Ask me first"). Approve carries the call out as the
// supervisor; Deny does nothing. A card is decided once: the same decision again answers the card
// as it stands (no second call), the other decision is refused.

export type Decision = 'Approve' | 'Deny';

/** CarryOut: append nothing yet, carry the call out and record its result; AlreadyDecided: nothing to do */
export type ApprovalStep = { readonly _tag: 'CarryOut' } | { readonly _tag: 'Deny' } | { readonly _tag: 'AlreadyDecided'; readonly card: ApprovalCard };

export const decideApproval = (card: ApprovalCard | undefined, c: { supervisorId: string; cardId: string; decision: Decision }): Either<Refusal, ApprovalStep> => {
  if (!card) return left(notFound(`approval card of supervisor ${c.supervisorId}`, c.cardId));
  if (card.decided) {
    return card.decided.decision === c.decision ? right({ _tag: 'AlreadyDecided', card }) : left(conflict(`card ${c.cardId} was already decided: ${card.decided.decision} (${card.decided.result})`));
  }
  if (card.carrying) return left(conflict(`card ${c.cardId} was approved and is being carried out`));
  return right(c.decision === 'Approve' ? { _tag: 'CarryOut' } : { _tag: 'Deny' });
};
