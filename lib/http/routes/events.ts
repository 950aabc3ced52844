import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Service } from '../../root/service.js';
import type { Scope } from '../../push/hub.js';
import { encodeFrame, KEEP_ALIVE, type Frame } from '../../push/frames.js';
import { BodyError } from '../../inputs/body.js';

// GET /api/events: the push stream (Server-Sent Events), scoped to what a page shows. Idle, it
// sends only a keep-alive comment every `keepAliveMs`. The id of each event resumes exactly via
// Last-Event-ID (header, or `lastEventId` in the query for a client that cannot set headers).
// See docs/events.md for the scopes and event shapes.

/** a client this far behind (unread bytes) is cut off; it reconnects with Last-Event-ID */
const MAX_BUFFERED = 8 * 1024 * 1024;

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

export const scopeFrom = (q: Context['query']): Scope => {
  const named = ['runs', 'run', 'supervisor', 'cards'].filter((k) => q[k] !== undefined);
  if (named.length !== 1) throw new BodyError(400, 'name exactly one scope: ?runs, ?run=<runId> (and &log for its log lines), ?supervisor=<id> or ?cards');
  if (named[0] === 'runs') return { kind: 'runs' };
  if (named[0] === 'cards') return { kind: 'cards' };
  const id = one(q[named[0]!])?.trim();
  if (!id) throw new BodyError(400, `${named[0]} needs an id`);
  return named[0] === 'run' ? { kind: 'run', runId: id, log: q['log'] !== undefined && one(q['log']) !== '0' } : { kind: 'supervisor', id };
};

export const eventRoutes = (router: Router, service: Service, keepAliveMs: number): void => {
  router.get('/api/events', async (ctx: Context) => {
    const scope = scopeFrom(ctx.query);
    const lastId = ctx.get('last-event-id') || one(ctx.query['lastEventId']) || undefined;
    const res = ctx.res;
    // Frames produced before the headers go out (a resume's replay) wait here, in order.
    let early: string[] | null = [];
    let timer: NodeJS.Timeout | null = null;
    let stopWatch: (() => void) | null = null;
    let gone = false;
    const stop = () => {
      if (gone) return;
      gone = true;
      if (timer) clearInterval(timer);
      stopWatch?.();
      if (!res.writableEnded) res.end();
    };
    const write = (text: string) => {
      if (gone) return;
      if (early) return void early.push(text);
      res.write(text);
      // Keep-alives only while idle: each frame re-arms the timer, so a busy stream sends none.
      timer?.refresh();
      if (res.writableLength > MAX_BUFFERED) stop();
    };
    // A client may leave while a resume is still reading: whatever is opened is then stopped at once.
    res.once('close', stop);
    const opened = await service.events.open(scope, { deliver: (f: Frame) => write(encodeFrame(f)) }, lastId);
    if (opened._tag === 'Unknown') {
      res.off('close', stop);
      ctx.status = 404;
      ctx.body = { detail: opened.detail };
      return;
    }
    stopWatch = opened.stop;
    if (gone) return void opened.stop();
    // The stream is written straight to the socket, outside Koa's body handling: a client that
    // leaves is the normal end of a stream here, not an error to report.
    ctx.respond = false;
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      'X-Accel-Buffering': 'no',
      'X-Content-Type-Options': 'nosniff',
    });
    const replay = early;
    early = null;
    write(`retry: 3000\n\n${replay.join('')}`);
    timer = setInterval(() => { if (!gone) res.write(KEEP_ALIVE); }, keepAliveMs);
  });
};
