import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Journal } from '../../journal/journal.js';
import type { LogStore } from '../state/log-store.js';
import { runStream } from '../state/run-stream.js';
import { writePrivateFile } from '../private-file.js';

// An export is the run replayed from its journal and log into one JSON-lines file: the view first,
// then every event, then every log line, then every activity row (tool call) with its whole output. A newer export of the same run replaces the older.
export const exportRun = async (home: string, journal: Journal, logs: LogStore, runId: string, view: unknown): Promise<{ path: string; size: number }> => {
  await logs.flushed();
  const lines: string[] = [JSON.stringify({ kind: 'run', run: view })];
  for (const e of journal.read(runStream(runId))) lines.push(JSON.stringify({ kind: 'event', ...e }));
  for (const l of logs.all(runId)) lines.push(JSON.stringify({ kind: 'log', ...l }));
  for (const a of logs.activity.all(runId)) lines.push(JSON.stringify({ kind: 'activity', row: a }));
  const path = join(home, 'exports', `${runId}.jsonl`);
  writePrivateFile(path, lines.join('\n') + '\n');
  return { path, size: statSync(path).size };
};
