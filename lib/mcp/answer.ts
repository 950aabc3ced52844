import { isLeft } from 'fp-ts/lib/Either.js';
import { refusalText, type Outcome } from '../../commands/refusal.js';
import { cappedDetail } from '../../domain/quoted.js';

// A tool's answer as MCP carries it: the JSON object both as text (for clients that read only
// text) and as structuredContent; a refusal is an error result whose text says why.

export interface ToolAnswer {
  [key: string]: unknown;
  readonly content: { readonly type: 'text'; readonly text: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

// structuredContent must be an object; a service answer that is not one is wrapped, not dropped
const asObject = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { result: value ?? null };

export const okAnswer = (value: unknown): ToolAnswer => {
  const body = asObject(value);
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
};

/** capped: the last net under any message that quotes input */
export const errorAnswer = (text: string): ToolAnswer => ({ content: [{ type: 'text', text: cappedDetail(text) }], isError: true });

export const answerOf = (outcome: Outcome<unknown>): ToolAnswer =>
  isLeft(outcome) ? errorAnswer(refusalText(outcome.left)) : okAnswer(outcome.right);
