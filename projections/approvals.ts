import type { ApprovalResult, SupervisorChatEvent } from '../journal/supervisor-chat-events.js';

// A supervisor's approval cards, folded from its chat stream: each AskFirst call's card and, once
// a person decided, the decision and what came of carrying the call out.

export interface ApprovalCard {
  readonly card: string;
  readonly tool: string;
  readonly run: string | null;
  readonly args: Readonly<Record<string, unknown>>;
  readonly reason: string;
  readonly requestedAt: string;
  /** approved and being carried out (until `decided` lands) */
  readonly carrying?: { readonly sender: string | null; readonly note?: string; readonly at: string };
  readonly decided?: {
    readonly decision: 'Approve' | 'Deny';
    readonly note?: string;
    readonly sender: string | null;
    readonly result: ApprovalResult;
    readonly detail: string;
    readonly at: string;
  };
}

export type Approvals = ReadonlyMap<string, ApprovalCard>;

export const evolveApprovals = (cards: Approvals, e: SupervisorChatEvent, at: string): Approvals => {
  switch (e.type) {
    case 'ApprovalRequested': {
      const { cardId, tool, run, args, reason } = e.data;
      return new Map(cards).set(cardId, { card: cardId, tool, run, args, reason, requestedAt: at });
    }
    case 'ApprovalCarryingOut': {
      const card = cards.get(e.data.cardId);
      if (!card) return cards;
      return new Map(cards).set(card.card, { ...card, carrying: { sender: e.data.sender, at, ...(e.data.note !== undefined ? { note: e.data.note } : {}) } });
    }
    case 'ApprovalDecided': {
      const card = cards.get(e.data.cardId);
      if (!card) return cards;
      const { decision, sender, result, detail, note } = e.data;
      const { carrying: _done, ...rest } = card;
      return new Map(cards).set(card.card, { ...rest, decided: { decision, sender, result, detail, at, ...(note !== undefined ? { note } : {}) } });
    }
    case 'ActionTaken': case 'HandedUp': case 'RunReceived':
      return cards;
  }
};
