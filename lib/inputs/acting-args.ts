import * as t from 'io-ts';
import { SettingChangeCodec } from '../../domain/settings-codec.js';
import { args, extend } from './object.js';
import { RunId } from './common.js';
import { ControlInput } from './control.js';
import { ReviseGoalInput } from './goal.js';
import { MessageInput } from './message.js';
import { FollowUpInput } from './follow-up.js';
import { ForkInput } from './fork.js';
import { AnswerInput } from './answer.js';
import { ReviewInput } from './review.js';
import { ArchiveInput } from './archive.js';
import { ResolveInput } from './resolve.js';
import { SecureInput } from './secure.js';
import { MergeInput, PullRequestCheckInput, PullRequestInput, UpdateFromBaseInput } from './ship.js';
import { KeepInput } from './keep.js';
import { MoveInput } from './move.js';

// Arguments of the tools that change something: `run` and the action's fields, decoded by the same
// codec (rules included) the HTTP route uses for its body, so the two doors cannot drift.

export { StartRunArgs } from './start.js';

const onRun = { run: RunId };
export const ControlRunArgs = extend(ControlInput, onRun);
export const ReviseGoalArgs = extend(ReviseGoalInput, onRun);
export const SecureRunWorkArgs = extend(SecureInput, onRun);
export const OpenPullRequestArgs = extend(PullRequestInput, onRun);
export const MergeRunArgs = extend(MergeInput, onRun);
export const UpdateRunFromBaseArgs = extend(UpdateFromBaseInput, onRun);
export const CheckPullRequestNowArgs = extend(PullRequestCheckInput, onRun);
export const MessageRunArgs = extend(MessageInput, onRun);
export const SubmitReviewArgs = extend(ReviewInput, onRun);
export const FollowUpRunArgs = extend(FollowUpInput, onRun);
export const ForkRunArgs = extend(ForkInput, onRun);
export const AnswerQuestionArgs = extend(AnswerInput, onRun);
export const ArchiveRunArgs = extend(ArchiveInput, onRun);
export const ResolveRunArgs = extend(ResolveInput, onRun);
export const KeepAttemptArgs = extend(KeepInput, onRun);
export const MoveRunArgs = extend(MoveInput, onRun);
// The notification command runs a program on the person's machine: only a person sets it (the
// Settings page, HTTP), never an agent or supervisor through MCP.
const McpSettingChange = t.refinement(SettingChangeCodec, (c) => c._tag !== 'NotifyCommand', 'a setting change other than NotifyCommand (set only from the Settings page)');
export const ChangeSettingArgs = args({ change: McpSettingChange });
