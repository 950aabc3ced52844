import { defineTool, type Tool } from '../tool.js';
import { runNotes } from '../args/common.js';
import { AnswerQuestionArgs, MessageRunArgs, SubmitReviewArgs } from '../../inputs/acting-args.js';

export const messageRun: Tool = defineTool({
  name: 'message_run',
  group: 'messaging',
  description: "Send a message to a run's agent. delivery Resume delivers now and continues a paused turn; Hold keeps it for the next turn. delivered false comes with the reason in detail.",
  args: MessageRunArgs,
  notes: { ...runNotes, text: 'The message; must not be blank.', delivery: 'Resume (now) or Hold (next turn).' },
  call: (a, { api, actor }) => api.message(a.run, a.text, a.delivery, a.reason, actor),
});

export const answerQuestion: Tool = defineTool({
  name: 'answer_question',
  group: 'messaging',
  description: "Answer a run's open question (id from get_run) with written text or a list of option labels.",
  args: AnswerQuestionArgs,
  notes: { ...runNotes, question: 'The question id from get_run.', answer: 'Written text, or an array of chosen option labels.' },
  call: (a, { api, actor }) => api.answer(a.run, a.question, a.answer, a.reason, actor),
});

export const submitReview: Tool = defineTool({
  name: 'submit_review',
  group: 'messaging',
  description: "Review a run's changes: comments on lines of its diff (read_run_worktree or GET /api/runs/{id}/diff), recorded and sent to its agent as one message with each comment's path:line and quoted code. A path or line not in the diff is refused; an ended run takes a follow-up instead.",
  args: SubmitReviewArgs,
  notes: {
    ...runNotes,
    comments: 'Each {path, side: new|old, line, endLine?, body}: path as the diff names it, line numbers on that side.',
    summary: 'Optional words after the comments.',
  },
  call: ({ run, ...review }, { api, actor }) => api.submitReview(run, review, actor),
});
