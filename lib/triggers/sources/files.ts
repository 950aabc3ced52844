import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import picomatch from 'picomatch';
import type { TriggerSource } from '../../../journal/trigger-events.js';
import { failing, type RunningSource, type SourceContext } from './source.js';
import { contentId } from './webhook.js';

// Files: chokidar 5 watches the folder (it has no globs of its own), picomatch matches each path,
// relative to the folder, against the rule's glob. A path fires once it has been quiet for the
// debounce; the event id hashes the path and its content, so the same content fires once.
// Files present when watching starts do not fire: only files written or changed afterwards.

type Files = Extract<TriggerSource, { _tag: 'Files' }>;

const DEFAULT_DEBOUNCE_MS = 500;
const MAX_HASHED_BYTES = 16 * 1024 * 1024;

const settled = async (ctx: SourceContext, source: Files, path: string): Promise<void> => {
  const rel = relative(source.folder, path).split(sep).join('/');
  let content: Buffer;
  try {
    content = await readFile(path);
  } catch {
    return; // gone again before it settled: nothing to act on
  }
  const id = contentId('file', rel, content.subarray(0, MAX_HASHED_BYTES).toString('base64'));
  await ctx.emit({ id, kind: 'File', summary: `${rel} was written`, fields: { path: rel, absolutePath: path, folder: source.folder } });
};

export const startFiles = (ctx: SourceContext, source: Files): RunningSource => {
  if (!existsSync(source.folder)) {
    failing(ctx, `the folder ${source.folder} does not exist`);
    return { stop: async () => {} };
  }
  const matches = picomatch(source.glob, { dot: true });
  const timers = new Map<string, NodeJS.Timeout>();
  const debounce = source.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  const onChange = (path: string): void => {
    const rel = relative(source.folder, path).split(sep).join('/');
    if (!matches(rel)) return;
    clearTimeout(timers.get(path));
    timers.set(path, setTimeout(() => {
      timers.delete(path);
      settled(ctx, source, path).catch((err: unknown) => failing(ctx, `could not read ${rel}: ${String(err)}`));
    }, debounce));
  };
  const watcher: FSWatcher = watch(source.folder, { ignoreInitial: true, persistent: true });
  watcher.on('add', onChange).on('change', onChange);
  watcher.on('error', (err) => failing(ctx, `watching ${source.folder} failed: ${String(err)}`));
  watcher.on('ready', () => ctx.status({ _tag: 'Watching', detail: `watching ${source.folder} for ${source.glob}` }));
  return {
    stop: async () => {
      for (const t of timers.values()) clearTimeout(t);
      await watcher.close();
    },
  };
};
