import * as t from 'io-ts';
import { fields } from './object.js';
import { nonBlank, oneLine, oneOf } from './kinds.js';

// Shipping a run from the app (docs/shipping.md): open a pull request, merge locally, update from
// base. Each is one door's body; MCP adds `run` (lib/mcp/args/acting.ts).

// What git accepts as a branch name, checked at the door so a bad one never reaches git as an
// option or a revision expression (no leading '-', no whitespace, no ~^:?*[\ , no '..' or '@{').
export const BRANCH_NAME = 'a branch name';
export const BRANCH = /^(?!-)(?!.*\.\.)(?!.*@\{)(?!.*\/\/)(?!.*[/.]$)[^\s~^:?*[\\\x00-\x1f\x7f]{1,255}$/;
const Branch = t.refinement(t.string, (s) => BRANCH.test(s), BRANCH_NAME);

/** GitHub keeps a pull request's body to 65,536 characters */
export const PullRequestInput = fields({}, { draft: t.boolean, base: Branch, title: oneLine(256), body: nonBlank(65_536) });

export const MERGE_METHODS = ['fast-forward', 'merge', 'squash'] as const;
export const MergeInput = fields({ method: oneOf(MERGE_METHODS) }, {});

export const UpdateFromBaseInput = fields({ mode: oneOf(['merge', 'rebase'] as const) }, { onConflict: oneOf(['agent', 'leave'] as const) });
