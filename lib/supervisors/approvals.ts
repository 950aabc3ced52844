import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { notFound, type Outcome } from '../../commands/refusal.js';
import { decideApproval, type Decision } from '../../commands/supervisor-approval.js';
import { isActingTool } from '../../commands/supervisor-tiers.js';
import { evolveApprovals, type ApprovalCard, type Approvals } from '../../projections/approvals.js';
import type { SupervisorService } from './service-port.js';
import { carryOut, type Args } from './acting.js';
import { appendChat, chatStream, decodeChatEntry } from './chat.js';

// Approval cards ("Ask me first": the call waits for a person): listed from the supervisor's chat, and decided by a person. Approve
// carries the original call out as the supervisor (a control with its position, so it may come
// back Stale); Deny does nothing. Either way ApprovalDecided lands in the chat, which wakes it.

export const approvalsOf = (service: SupervisorService, id: string): Approvals => {
  let cards: Approvals = new Map();
  for (const raw of service.core.journal.read(chatStream(id))) {
    const e = decodeChatEntry(raw);
    if (e) cards = evolveApprovals(cards, e, raw.at);
  }
  return cards;
};

/** open cards first (oldest first), then decided ones (newest first) */
export const listApprovals = (service: SupervisorService, id: string): Outcome<{ approvals: readonly ApprovalCard[] }> => {
  if (!service.core.supervisors.get(id)) return left(notFound('supervisor', id));
  const all = [...approvalsOf(service, id).values()];
  return right({ approvals: [...all.filter((c) => !c.decided), ...all.filter((c) => c.decided).reverse()] });
};

export interface CardDecision {
  readonly decision: Decision;
  readonly note?: string;
  readonly sender: string | null;
}

export const decideCard = async (service: SupervisorService, id: string, cardId: string, d: CardDecision): Promise<Outcome<ApprovalCard>> => {
  if (!service.core.supervisors.get(id)) return left(notFound('supervisor', id));
  const card = approvalsOf(service, id).get(cardId);
  const step = decideApproval(card, { supervisorId: id, cardId, decision: d.decision });
  if (isLeft(step)) return step;
  if (step.right._tag === 'AlreadyDecided') return right(step.right.card);
  const at = () => service.core.now().toISOString();
  const note = d.note !== undefined && d.note.trim() !== '' ? { note: d.note } : {};
  // recorded before the call: a second request meanwhile is refused, and a crash keeps the decision
  if (step.right._tag === 'CarryOut') appendChat(service.core.journal, id, [{ type: 'ApprovalCarryingOut', data: { cardId, sender: d.sender, ...note } }], at());
  const outcome = step.right._tag === 'Deny' ? { result: 'Denied' as const, detail: 'denied: nothing was done' } : await carry(service, id, card!);
  appendChat(service.core.journal, id, [{ type: 'ApprovalDecided', data: { cardId, decision: d.decision, sender: d.sender, ...outcome, ...note } }], at());
  return right(approvalsOf(service, id).get(cardId)!);
};

/** at start: an approved call the server stopped in the middle of is recorded as Interrupted */
export const recoverApprovals = (service: SupervisorService): void => {
  for (const s of service.core.supervisors.all()) {
    for (const card of approvalsOf(service, s.id).values()) {
      if (!card.carrying || card.decided) continue;
      const { sender, note } = card.carrying;
      const detail = 'the server stopped while carrying the call out; whether it took effect shows on the run';
      appendChat(service.core.journal, s.id, [{ type: 'ApprovalDecided', data: { cardId: card.card, decision: 'Approve', sender, result: 'Interrupted', detail, ...(note !== undefined ? { note } : {}) } }], service.core.now().toISOString());
    }
  }
};

const carry = async (service: SupervisorService, id: string, card: ApprovalCard) => {
  if (!isActingTool(card.tool)) return { result: 'Refused' as const, detail: `${card.tool} is not a tool an approval carries out` };
  return carryOut(service, id, card.tool, card.args as Args);
};
