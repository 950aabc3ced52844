import { type Either, left, right } from 'fp-ts/lib/Either.js';
import type { PullRequestRef } from '../../domain/runs.js';
import type { CodeHostClient } from './github.js';
import { type RepositoryName, originUrl as gitOriginUrl, parseRepository } from './origin.js';
import type { PullRequestView } from '../../domain/pull-request.js';
import { type PullRequestRefusal, refuse } from './refusal.js';
import { withoutCredentials } from '../git/remote-url.js';

// read_pull_request's addressing (spec: "read_pull_request addressing" and its refusals).
// The service has already found the run or project (unknown ids are its refusal, not ours) and
// hands over plain facts; this decides which repository and number to read, then reads it.

export interface PullRequestAddressInput {
  /** the run's delivered pull requests, oldest first (delivery order), and its primary folder */
  readonly run?: { readonly pullRequests: readonly PullRequestRef[]; readonly primaryFolderPath: string };
  readonly project?: { readonly primaryFolderPath: string };
  readonly number?: number;
}

export interface PullRequestAddress extends RepositoryName {
  readonly number: number;
}

export interface AddressingDeps {
  readonly webHost: string;
  /** the folder's origin URL; defaults to git's remote.origin.url (a seam for tests) */
  readonly originUrl?: (folderPath: string) => Promise<string | undefined>;
}

const isPullRequestNumber = (n: number | undefined): n is number => n !== undefined && Number.isSafeInteger(n) && n > 0;

// "owner/name" as recorded on a delivered pull request.
const fromRef = (ref: PullRequestRef, number: number): Either<PullRequestRefusal, PullRequestAddress> => {
  const [owner, name, ...rest] = ref.repository.split('/');
  return owner && name && rest.length === 0
    ? right({ owner, name, number })
    : left(refuse('NotOnCodeHost', `the run's pull request ${ref.url} names no repository on the code host`));
};

const inFolder = async (folderPath: string, number: number, deps: AddressingDeps): Promise<Either<PullRequestRefusal, PullRequestAddress>> => {
  const url = await (deps.originUrl ?? gitOriginUrl)(folderPath);
  if (url === undefined) return left(refuse('NotOnCodeHost', `the folder ${folderPath} has no origin remote, so it is not on the code host`));
  const repo = parseRepository(url, deps.webHost);
  if (repo === undefined) return left(refuse('NotOnCodeHost', `the origin of ${folderPath} (${withoutCredentials(url)}) is not on the code host ${deps.webHost}`));
  return right({ ...repo, number });
};

const forRun = (
  run: NonNullable<PullRequestAddressInput['run']>,
  number: number | undefined,
  deps: AddressingDeps,
): Promise<Either<PullRequestRefusal, PullRequestAddress>> => {
  if (number === undefined) {
    const newest = run.pullRequests[run.pullRequests.length - 1];
    if (newest === undefined) return Promise.resolve(left(refuse('NoDeliveredPullRequest', 'the run has delivered no pull request; give a number to read one in its repository')));
    return Promise.resolve(fromRef(newest, newest.number));
  }
  // a pull request the run delivered names its own repository (it may be a secondary folder's)
  const delivered = [...run.pullRequests].reverse().find((p) => p.number === number);
  return delivered ? Promise.resolve(fromRef(delivered, number)) : inFolder(run.primaryFolderPath, number, deps);
};

/** Which pull request the arguments name. A run takes precedence over a project when both are given. */
export const addressPullRequest = async (input: PullRequestAddressInput, deps: AddressingDeps): Promise<Either<PullRequestRefusal, PullRequestAddress>> => {
  if (input.number !== undefined && !isPullRequestNumber(input.number)) {
    return left(refuse('NamesNoPullRequest', `${input.number} is not a pull request number (a positive integer)`));
  }
  if (input.run) return forRun(input.run, input.number, deps);
  if (!input.project) return left(refuse('NamesNoPullRequest', 'name a run, or a project and a pull request number'));
  if (input.number === undefined) return left(refuse('NamesNoPullRequest', 'a project names no pull request by itself: give its number too'));
  return inFolder(input.project.primaryFolderPath, input.number, deps);
};

/** read_pull_request after the service has found the run or project: address, then read. */
export const readAddressedPullRequest = async (
  input: PullRequestAddressInput,
  deps: AddressingDeps & { readonly client: CodeHostClient },
): Promise<Either<PullRequestRefusal, PullRequestView>> => {
  const address = await addressPullRequest(input, deps);
  if (address._tag === 'Left') return address;
  const { owner, name, number } = address.right;
  return deps.client.readPullRequest(owner, name, number);
};
