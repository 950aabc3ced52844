import * as t from 'io-ts';
import { STANDINGS } from '../../../domain/runs.js';
import { args, extend } from '../../inputs/object.js';
import { UsageInput } from '../../inputs/usage.js';
import { intRange, nonBlank, oneOf, withDefault } from '../../inputs/kinds.js';
import { PageSize, ProjectRef, RunId, SeqCursor, ThreadCursor, optionalReason } from './common.js';

// Arguments of the reading tools (spec, Tool endpoint > Reading tools).

export const ListRunsArgs = args({}, { standing: oneOf(STANDINGS), project: ProjectRef });
export const GetRunArgs = args({ run: RunId }, optionalReason);
export const ListProjectsArgs = args({});
export const ListWorkersArgs = args({});
export const ReadRunThreadArgs = args({ run: RunId, pageSize: PageSize(10) }, { before: ThreadCursor, ...optionalReason });
export const ReadRunHistoryArgs = args({ run: RunId, pageSize: PageSize(25) }, { before: SeqCursor, ...optionalReason });
export const ReadRunLogArgs = args({ run: RunId, pageSize: PageSize(50) }, { before: SeqCursor, ...optionalReason });
export const ExportRunArgs = args({ run: RunId }, optionalReason);
export const ListWorkflowsArgs = args({ project: ProjectRef });
export const ReadWorkflowArgs = args({ project: ProjectRef, workflow: nonBlank(200) });
export const ValidateWorkflowArgs = args({ project: ProjectRef, workflow: nonBlank(200) });
export const WaitForRunArgs = args({ run: RunId, timeout: withDefault(intRange(0, 300), 60) }, optionalReason);
export const ReadPullRequestArgs = args({}, { run: RunId, project: ProjectRef, number: intRange(1, Number.MAX_SAFE_INTEGER, 'a positive integer'), ...optionalReason });
export const ReadRunWorktreeArgs = args({ run: RunId }, optionalReason);
// GET /api/runs/{id}/pull-request-draft takes no query: MCP has `run` (and a reason, as every read of a run)
export const ReadPullRequestDraftArgs = args({ run: RunId }, optionalReason);
// GET /api/usage's query, decoded by the same codec (lib/inputs/usage.ts), its fields as arguments
export const ReadUsageArgs = extend(UsageInput, {});
