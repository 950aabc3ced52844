import * as t from 'io-ts';
import { ACTIONS } from '../../service-api.js';
import { HARNESSES } from '../../workflows/model.js';
import { SettingChangeCodec } from '../../settings/codec.js';
import { args } from './object.js';
import { nonBlank, oneLine, oneOf } from './kinds.js';
import { ProjectRef, RunId, optionalReason } from './common.js';

// Arguments of the tools that change something: starting, controlling, messaging, archiving, settings.

export const Harness = oneOf(HARNESSES);

export const StartRunArgs = args(
  { project: ProjectRef, goal: nonBlank() },
  { workflow: nonBlank(200), inputs: t.record(t.string, t.string), title: oneLine(80), harness: Harness, model: nonBlank(200), ...optionalReason },
);
export const ControlRunArgs = args(
  { run: RunId, position: t.string, action: oneOf(ACTIONS) },
  { harness: Harness, model: t.string, node: nonBlank(200), ...optionalReason },
);
export const ReviseGoalArgs = args({ run: RunId, goal: nonBlank() }, optionalReason);
export const SecureRunWorkArgs = args({ run: RunId }, optionalReason);
export const MessageRunArgs = args({ run: RunId, text: nonBlank(), delivery: oneOf(['Resume', 'Hold'] as const) }, optionalReason);
export const AnswerQuestionArgs = args({ run: RunId, question: nonBlank(200), answer: t.union([t.string, t.array(t.string)], 'a string or an array of strings') }, optionalReason);
export const ArchiveRunArgs = args({ run: RunId, state: oneOf(['Archived', 'Active'] as const) }, optionalReason);
export const ResolveRunArgs = args({ run: RunId }, optionalReason);
export const ChangeSettingArgs = args({ change: SettingChangeCodec });
