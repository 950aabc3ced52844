import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

export interface CallAnswer { readonly isError?: boolean; readonly structuredContent?: Record<string, unknown>; readonly content: unknown }

export const call = async (client: Client, name: string, args: unknown): Promise<CallAnswer> =>
  (await client.callTool({ name, arguments: args as Record<string, unknown> })) as CallAnswer;

export const textOf = (res: CallAnswer): string => {
  const first = (res.content as { type: string; text?: string }[])[0];
  return first?.type === 'text' ? first.text ?? '' : '';
};

export const json = <T = Record<string, unknown>>(res: CallAnswer): T => JSON.parse(textOf(res)) as T;
