import { isLeft } from 'fp-ts/lib/Either.js';
import { refusalText, type Outcome } from '../../commands/refusal.js';

// A tool's answer as MCP carries it: the JSON object both as text (for clients that read only
// text) and as structuredContent; a refusal is an error result whose text says why.

export interface ToolAnswer {
  [key: string]: unknown;
  readonly content: { readonly type: 'text'; readonly text: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

export const okAnswer = (value: object): ToolAnswer => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value as Record<string, unknown>,
});

export const errorAnswer = (text: string): ToolAnswer => ({ content: [{ type: 'text', text }], isError: true });

export const answerOf = (outcome: Outcome<object>): ToolAnswer =>
  isLeft(outcome) ? errorAnswer(refusalText(outcome.left)) : okAnswer(outcome.right);
