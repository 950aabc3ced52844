import type { IncomingEvent } from './source.js';
import { nodesOf, type LabeledIssuesAnswer, type PullRequestCommentsAnswer } from './codehost-queries.js';

// From the host's answers to events. Only what happened since the rule exists counts: an issue
// labeled before the rule was made does not fire. Ids are the host's node ids (a LabeledEvent,
// an IssueComment), so removing and re-adding a label is a new event, and a re-poll is not.

export const labeledEvents = (a: LabeledIssuesAnswer, repository: string, label: string, since: string): IncomingEvent[] =>
  nodesOf(a.repository?.issues).flatMap((issue) =>
    nodesOf(issue.timelineItems)
      .filter((t) => t.__typename === 'LabeledEvent' && t.id && t.createdAt && t.createdAt >= since && t.label?.name.toLowerCase() === label.toLowerCase())
      .map((t): IncomingEvent => ({
        id: t.id!, kind: 'IssueLabeled', url: issue.url,
        summary: `${repository}#${issue.number} labeled ${label}: ${issue.title}`,
        fields: { repository, number: String(issue.number), title: issue.title, body: issue.body, author: issue.author?.login ?? '', label },
      })));

/** the text after the command word, or null when the comment does not start with it */
export const commandArgs = (body: string, command: string): string | null => {
  const text = body.trimStart();
  if (!text.startsWith(command)) return null;
  const rest = text.slice(command.length);
  return rest === '' || /^\s/.test(rest) ? rest.trim() : null;
};

export const commandEvents = (a: PullRequestCommentsAnswer, repository: string, command: string, since: string): IncomingEvent[] =>
  nodesOf(a.repository?.pullRequests).flatMap((pr) =>
    nodesOf(pr.comments)
      .filter((c) => c.createdAt >= since && commandArgs(c.body, command) !== null)
      .map((c): IncomingEvent => ({
        id: c.id, kind: 'PullRequestComment', url: c.url,
        summary: `${repository}#${pr.number} ${command} by ${c.author?.login ?? 'someone'}: ${pr.title}`,
        fields: {
          repository, number: String(pr.number), title: pr.title, body: c.body, args: commandArgs(c.body, command) ?? '',
          author: c.author?.login ?? '', pullRequestUrl: pr.url,
        },
      })));
