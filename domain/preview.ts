// A run's preview: the project's dev server started in the run's folder, on a port svc picks, and
// reached through svc's own origin at /preview/<runId>/ (docs/preview.md). Plain data only.

/** how a project starts its preview: argv, never a shell string */
export interface PreviewCommand {
  readonly argv: readonly string[];
  /** run once per run folder before the first start, and again when the lockfile changes */
  readonly setup: readonly string[] | null;
  /** the environment variable that carries the port */
  readonly portEnv: string;
}

export interface PreviewLimits {
  /** a preview without a request through svc's proxy for this long is stopped */
  readonly idleMinutes: number;
  /** at most this many previews at once: the oldest idle one is stopped for a new one */
  readonly limit: number;
}

export const DEFAULT_PREVIEW_LIMITS: PreviewLimits = { idleMinutes: 30, limit: 3 };
export const DEFAULT_PORT_ENV = 'PORT';

/** why a preview stopped, as recorded */
export const PREVIEW_STOP_REASONS = ['stopped', 'archived', 'idle', 'limit', 'exited', 'failed', 'server-stopped', 'run-ended'] as const;
export type PreviewStopReason = (typeof PREVIEW_STOP_REASONS)[number];

export type PreviewState = 'off' | 'setting-up' | 'starting' | 'running' | 'stopped';

/** what GET /api/runs/{id}/preview and get_preview answer */
export interface PreviewView {
  readonly runId: string;
  readonly state: PreviewState;
  /** the path under svc's origin while it runs (`/preview/<runId>/`), else null */
  readonly path: string | null;
  /** the full URL under svc's origin while it runs, else null */
  readonly url: string | null;
  readonly port: number | null;
  readonly startedAt: string | null;
  readonly stoppedAt: string | null;
  readonly stopReason: PreviewStopReason | null;
  /** one sentence the app shows: why it stopped, or what it is doing */
  readonly note: string | null;
  /** the command it runs, and where it came from; null when the project has none */
  readonly command: (PreviewCommand & { readonly from: 'setting' | 'file' }) | null;
  /** why the project's .svc/preview.json was not taken, when it is there but wrong */
  readonly fileProblem: string | null;
}

/** the one placeholder a command step's text may hold: svc writes its value (docs/workflows.md) */
export const PREVIEW_URL = '{{preview.url}}';

export const previewPath = (runId: string): string => `/preview/${encodeURIComponent(runId)}/`;

export const stopNote = (reason: PreviewStopReason, detail: string | null): string => {
  const why: Record<PreviewStopReason, string> = {
    stopped: 'Stopped by request',
    archived: 'Stopped: the run was archived',
    idle: 'Stopped: unused for its idle time',
    limit: 'Stopped to make room: at most the preview limit run at once, the oldest idle one goes first',
    exited: 'The preview command exited',
    failed: 'The preview could not start',
    'server-stopped': 'Stopped because svc stopped',
    'run-ended': 'Stopped with the run',
  };
  return detail ? `${why[reason]} (${detail})` : why[reason];
};
