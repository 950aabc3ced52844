import { isLeft } from 'fp-ts/lib/Either.js';
import { refusalText } from '../../commands/refusal.js';
import type { ActingTool } from '../../commands/supervisor-tiers.js';
import { decided, str, type Args } from '../supervisors/acting.js';
import { appendChat } from '../supervisors/chat.js';
import type { SupervisorService } from '../supervisors/service-port.js';
import { errorAnswer, okAnswer, type ToolAnswer } from './answer.js';
import type { Tool, ToolContext } from './tool.js';

// A supervisor's call of an acting tool over /mcp: decided by lib/supervisors/acting.ts, then done
// now or posted as an approval card in the supervisor's chat.

/** a short line of what came of a call, for the chat and the activity lines */
const summaryOf = (answer: ToolAnswer): string => {
  if (answer.isError) return `refused: ${answer.content[0]?.text ?? ''}`.slice(0, 300);
  const body = answer.structuredContent ?? {};
  if (typeof body['outcome'] === 'string') return String(body['outcome']);
  if (typeof body['run'] === 'string') return `started run ${String(body['run'])}`;
  return 'done';
};

const runOf = (tool: ActingTool, a: Args, answer: ToolAnswer): string | null =>
  tool === 'start_run' ? (typeof answer.structuredContent?.['run'] === 'string' ? (answer.structuredContent['run'] as string) : null) : (str(a, 'run') ?? null);

const invokeAs = async (id: string, tool: Tool, a: Args, ctx: ToolContext): Promise<ToolAnswer> => tool.invoke(a, { ...ctx, actor: { kind: 'supervisor', name: id } });

/** a supervisor's call of an acting tool over /mcp */
export const actAs = async (service: SupervisorService, id: string, tool: Tool & { name: ActingTool }, a: Args, ctx: ToolContext): Promise<ToolAnswer> => {
  const v = decided(service, id, tool.name, a, false);
  if (isLeft(v)) return errorAnswer(refusalText(v.left));
  const at = () => service.core.now().toISOString();
  const reason = str(a, 'reason')!.trim();
  if (v.right.tier === 'AskFirst') {
    const cardId = service.core.newId('card');
    appendChat(service.core.journal, id, [{ type: 'ApprovalRequested', data: { cardId, tool: tool.name, run: str(a, 'run') ?? null, args: a, reason } }], at());
    return okAnswer({
      awaitingApproval: true, card: cardId,
      detail: `${tool.name} waits for a person to approve card ${cardId} ("Ask me first"); nothing was done yet. You will be told the decision; do not call it again.`,
    });
  }
  const answer = await invokeAs(id, tool, a, ctx);
  appendChat(service.core.journal, id, [{ type: 'ActionTaken', data: { tool: tool.name, run: runOf(tool.name, a, answer), reason, summary: summaryOf(answer) } }], at());
  return answer;
};

