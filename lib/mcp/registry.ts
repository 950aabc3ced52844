import type { Settings, ToolGroup } from '../../domain/settings.js';
import type { Tool } from './tool.js';
import { exportRun, getRun, listProjects, listRuns, listWorkers, waitForRun } from './tools/reading-runs.js';
import { readRunHistory, readRunLog, readRunThread } from './tools/reading-pages.js';
import { listWorkflows, readPullRequest, readPullRequestDraft, readRunWorktree, readUsage, readWorkflow, validateWorkflow } from './tools/reading-more.js';
import { followUpRun, forkRun, startRun } from './tools/starting.js';
import { checkPullRequestNow, controlRun, mergeRun, moveRun, openPullRequest, reviseGoal, secureRunWork, updateRunFromBase } from './tools/controlling.js';
import { answerQuestion, messageRun, submitReview } from './tools/messaging.js';
import { archiveRun, keepAttempt, resolveRun } from './tools/archiving.js';
import { changeSetting } from './tools/settings.js';
import { getPreview, setProjectPreview, startPreview, stopPreview } from './tools/previews.js';

// Every tool of the client list, in the order tools/list shows them.
export const TOOLS: readonly Tool[] = [
  listRuns, getRun, listProjects, listWorkers, readRunThread, readRunHistory, readRunLog, exportRun,
  listWorkflows, readWorkflow, validateWorkflow, waitForRun, readPullRequest, readPullRequestDraft, readRunWorktree, readUsage,
  startRun, followUpRun, forkRun,
  controlRun, moveRun, reviseGoal, secureRunWork, openPullRequest, mergeRun, updateRunFromBase, checkPullRequestNow,
  messageRun, answerQuestion, submitReview,
  archiveRun, resolveRun, keepAttempt,
  getPreview, startPreview, stopPreview,
  changeSetting, setProjectPreview,
];

export const findTool = (name: string): Tool | undefined => TOOLS.find((t) => t.name === name);

export const groupOn = (settings: Settings, group: ToolGroup): boolean => settings.mcp.groups[group] === true;

export const visibleTools = (settings: Settings): readonly Tool[] => TOOLS.filter((t) => groupOn(settings, t.group));

export const groupOffText = (group: ToolGroup): string => `the ${group} tool group is off in Settings`;
