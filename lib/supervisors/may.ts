import { isLeft, left, right } from 'fp-ts/lib/Either.js';
import { invalid, type Outcome } from '../../commands/refusal.js';
import { decideSupervisorAction } from '../../commands/supervisor-action.js';
import { ACTING_TOOLS, isActingTool } from '../../commands/supervisor-tiers.js';
import type { ActionSetting } from '../../domain/supervisor.js';
import { ACTIONS } from '../../domain/runs.js';
import { HARNESSES } from '../../domain/workflow.js';
import type { SupervisorService } from './service-port.js';
import { factsOf } from './acting.js';

// "May supervisor S do X now, and at which tier?" for the app: the very decide the tool endpoint
// asks (commands/supervisor-action.ts), over the same facts, with a reason taken as given.

export interface MayQuery {
  readonly tool?: string;
  readonly action?: string;
  readonly run?: string;
  readonly project?: string;
  readonly harness?: string;
}

export interface MayAnswer {
  readonly allowed: boolean;
  /** the tier it would go ahead at; null when refused */
  readonly tier: 'DoIt' | 'AskFirst' | null;
  readonly setting: ActionSetting | null;
  /** why not, when refused */
  readonly detail: string | null;
}

export const mayQuery = (service: SupervisorService, id: string, q: MayQuery): Outcome<MayAnswer> => {
  if (!q.tool || !isActingTool(q.tool)) return left(invalid(`tool must be one of ${ACTING_TOOLS.join(', ')}`));
  if (q.action !== undefined && !(ACTIONS as readonly string[]).includes(q.action)) return left(invalid(`action must be one of ${ACTIONS.join(', ')}`));
  if (q.harness !== undefined && !(HARNESSES as readonly string[]).includes(q.harness)) return left(invalid(`harness must be one of ${HARNESSES.join(', ')}`));
  if (q.tool === 'start_run' ? !q.project : !q.run) return left(invalid(q.tool === 'start_run' ? 'start_run needs project' : `${q.tool} needs run`));
  const args = { reason: 'asked by the app', ...q };
  const facts = factsOf(service, id, q.tool, args);
  if (isLeft(facts)) return facts;
  const v = decideSupervisorAction(facts.right);
  return right(isLeft(v)
    ? { allowed: false, tier: null, setting: null, detail: v.left._tag === 'Forbidden' ? v.left.detail : JSON.stringify(v.left) }
    : { allowed: true, tier: v.right.tier, setting: v.right.setting, detail: null });
};
