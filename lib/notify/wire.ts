import { NOTIFY_EVENT_CODECS, type NotifyEvent } from '../../journal/notify-events.js';
import { evolveNotify, NO_NOTIFICATIONS, type NotifyState } from '../../projections/notify-command.js';
import { type ServiceCore } from '../service/core.js';
import { projectOf } from '../read-models/run-detail.js';
import { SingleStream } from '../state/event-stream.js';
import { Notifier } from './notifier.js';
import { runNeeds } from '../../projections/needs-you.js';

// The notifier in the real server: its record is the 'notify-command' journal stream, the run's
// title and project name come from the service's folds, and a run's URL is its page in the app.

export const notifierFor = (core: ServiceCore): { notifier: Notifier; record: SingleStream<NotifyState, NotifyEvent> } => {
  const record = new SingleStream<NotifyState, NotifyEvent>(core.journal, 'notify-command', NOTIFY_EVENT_CODECS, NO_NOTIFICATIONS, evolveNotify);
  const notifier = new Notifier({
    journal: core.journal,
    record,
    settings: () => core.settings.current,
    names: (runId) => {
      const run = core.runs.get(runId);
      return run ? { title: run.title, project: projectOf(core, run)?.name ?? run.projectId, needs: runNeeds(run) } : undefined;
    },
    runUrl: (runId) => `${core.baseUrl}/runs/${encodeURIComponent(runId)}`,
    now: () => core.now(),
  });
  return { notifier, record };
};
