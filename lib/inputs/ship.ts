import * as t from 'io-ts';
import { fields } from './object.js';
import { nonBlank, oneLine, oneOf } from './kinds.js';
import { optionalReason } from './common.js';

// Shipping a run from the app (docs/shipping.md): open a pull request, merge locally, update from
// base, check the pull request now. Each is one door's body; MCP adds `run` (lib/inputs/acting-args.ts).
// Each takes the optional `reason` every action on a run takes: a supervisor must give one (its
// chat records it with the action), and without it in the codec its call could never decode.

// What git accepts as a branch name, checked at the door so a bad one never reaches git as an
// option or a revision expression (no leading '-', no whitespace, no ~^:?*[\ , no '..' or '@{').
export const BRANCH_NAME = 'a branch name';
export const BRANCH = /^(?!-)(?!.*\.\.)(?!.*@\{)(?!.*\/\/)(?!.*[/.]$)[^\s~^:?*[\\\x00-\x1f\x7f]{1,255}$/;
const Branch = t.refinement(t.string, (s) => BRANCH.test(s), BRANCH_NAME);

/** GitHub keeps a pull request's body to 65,536 characters */
export const PullRequestInput = fields({}, { draft: t.boolean, base: Branch, title: oneLine(256), body: nonBlank(65_536), ...optionalReason });

export const MERGE_METHODS = ['fast-forward', 'merge', 'squash'] as const;
export const MergeInput = fields({ method: oneOf(MERGE_METHODS) }, optionalReason);

export const UpdateFromBaseInput = fields({ mode: oneOf(['merge', 'rebase'] as const) }, { onConflict: oneOf(['agent', 'leave'] as const), ...optionalReason });

/** POST /api/runs/{id}/pull-request/check: nothing to say but why */
export const PullRequestCheckInput = fields({}, optionalReason);
