import * as t from 'io-ts';
import { ACTIONS } from '../../domain/runs.js';
import { fields, type Rule } from './object.js';
import { nonBlank, oneOf, usdBudget } from './kinds.js';
import { Harness, optionalReason } from './common.js';

// Acting on a run at a position (POST /api/runs/{id}/control, control_run).

interface ControlShape { readonly action: string; readonly harness?: string; readonly model?: string; readonly node?: string; readonly budgetUsd?: number }

// `harness` belongs to ChangeHarness and `node` to Jump only; giving them with another action is
// refused rather than silently dropped, and `model` is always refused (a run's model cannot change).
const oneActionsFields: Rule<ControlShape> = (a) => {
  if (a.model !== undefined) return "changing a run's model is unsupported; leave out model";
  if (a.action === 'ChangeHarness' && a.harness === undefined) return 'ChangeHarness needs harness (claude, codex or opencode)';
  if (a.action !== 'ChangeHarness' && a.harness !== undefined) return 'harness is only for ChangeHarness';
  if (a.action === 'Jump' && a.node === undefined) return 'Jump needs node (the id of the step to jump to)';
  if (a.action !== 'Jump' && a.node !== undefined) return 'node is only for Jump';
  if (a.action !== 'Resume' && a.budgetUsd !== undefined) return 'budgetUsd is only for Resume (raising the budget of a run it paused)';
  return null;
};

export const ControlInput = fields(
  { position: t.string, action: oneOf(ACTIONS) },
  { harness: Harness, model: t.string, node: nonBlank(200), budgetUsd: usdBudget(), ...optionalReason },
  oneActionsFields,
);
