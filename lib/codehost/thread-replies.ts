import type { Either } from 'fp-ts/lib/Either.js';
import type { CodeHostConfig } from './config.js';
import { attempt, clientFor } from './github.js';
import { REPLY_TO_THREAD_MUTATION, RESOLVE_THREAD_MUTATION } from './loop-queries.js';
import type { PullRequestRefusal } from './refusal.js';
import { SVC_MARKER } from './pr-state.js';

// svc's answers on review threads: a reply (marked as svc's, so the loop never takes it for a
// person's thread), and resolving the thread when the workflow says so.

export const replyToThread = (config: CodeHostConfig, threadId: string, body: string): Promise<Either<PullRequestRefusal, unknown>> =>
  attempt(`a reply on review thread ${threadId}`, () =>
    clientFor(config).request(REPLY_TO_THREAD_MUTATION, { input: { pullRequestReviewThreadId: threadId, body: `${body}\n\n${SVC_MARKER}` } }));

export const resolveThread = (config: CodeHostConfig, threadId: string): Promise<Either<PullRequestRefusal, unknown>> =>
  attempt(`resolving review thread ${threadId}`, () => clientFor(config).request(RESOLVE_THREAD_MUTATION, { input: { threadId } }));
