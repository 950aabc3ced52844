import { left, right, type Either } from 'fp-ts/lib/Either.js';
import type { ActionSetting, Actions, Tier } from '../domain/supervisor.js';
import { forbidden, type Refusal } from './refusal.js';

// Rules 6 and 7 (spec, Supervisor scoping): each acting tool falls under one of the five action
// settings, whose tier says DoIt (act now), AskFirst (post an approval card and wait) or Never
// (refuse). change_setting is under none: tool groups decide it, not tiers.

export const ACTING_TOOLS = [
  'start_run', 'control_run', 'revise_goal', 'secure_run_work', 'message_run', 'answer_question', 'submit_review', 'archive_run', 'resolve_run', 'open_pull_request', 'keep_attempt',
  'merge_run', 'update_run_from_base', 'check_pull_request_now',
] as const;
export type ActingTool = (typeof ACTING_TOOLS)[number];

export const isActingTool = (name: string): name is ActingTool => (ACTING_TOOLS as readonly string[]).includes(name);

/** the words the app shows for each setting (the spec's "What it may do" table) */
export const SETTING_TEXT: Readonly<Record<ActionSetting, string>> = {
  messageAndControl: 'Message and control runs',
  secureWork: "Save and push a run's work to its own branch",
  switchHarness: "Switch a run's harness",
  startRuns: 'Start runs',
  archiveRuns: 'Archive runs',
};

export const settingOf = (tool: ActingTool, action?: string): ActionSetting => {
  switch (tool) {
    case 'control_run': return action === 'ChangeHarness' ? 'switchHarness' : 'messageAndControl';
    case 'revise_goal': case 'message_run': case 'answer_question': case 'submit_review': return 'messageAndControl';
    // publishing the run's branch as a pull request pushes its work as Secure work does
    case 'secure_run_work': case 'open_pull_request': return 'secureWork';
    // merging the run's branch into the base, or the base into it, moves its committed work as a push does
    case 'merge_run': case 'update_run_from_base': return 'secureWork';
    // reading the pull request now may start a fixing turn on the run, as a message would
    case 'check_pull_request_now': return 'messageAndControl';
    case 'start_run': return 'startRuns';
    // keeping an attempt archives the others of its group
    case 'archive_run': case 'resolve_run': case 'keep_attempt': return 'archiveRuns';
  }
};

/** the tier a call goes ahead at, or Never's refusal */
export const decideTier = (actions: Actions, setting: ActionSetting): Either<Refusal, Exclude<Tier, 'Never'>> => {
  const tier = actions[setting];
  return tier === 'Never' ? left(forbidden(`"${SETTING_TEXT[setting]}" is set to Never for this supervisor`)) : right(tier);
};
