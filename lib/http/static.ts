import type { ServerResponse } from 'node:http';
import type { Stats } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type Koa from 'koa';
import conditional from 'koa-conditional-get';
import send from 'koa-send';
import { packageRoot } from '../package-root.js';
import { notFound } from './not-found.js';
import { quoted } from '../../domain/quoted.js';

// The browser app from web-dist, through koa-send. Only the app's own routes (a path without a file
// extension, /runs/<id>) get index.html; a file that is not there is a JSON 404, so a client that
// probes for a JSON document never parses the app's HTML. Paths that belong to the API, the tool
// endpoint or /.well-known never get here (lib/http/not-found.ts answers them first).

/** A file extension on the last path segment: `/app.js`, `/x/logo.svg`; not `/runs/r-1` */
export const hasExtension = (path: string): boolean => extname(basename(path)) !== '';

// A name that changes with the bytes may be kept a year: everything in chunks/ (scripts/build-web.ts
// names them [name]-[hash]), and any other name with a hash in it (`app-4F2KX7QA.js`; the hash has a
// digit, which tells it from a plain word like `-component`).
const HASHED = /[-.](?=[A-Za-z0-9]*\d)[A-Za-z0-9]{8,}\.[A-Za-z0-9]+$/;
const CHUNKS = /(^|[\\/])chunks[\\/][^\\/]+$/;

// index.html and unhashed assets are revalidated every time (cheap: a 304 on a matching ETag), so a
// new build is seen on the next load; hashed assets are immutable.
export const cacheControl = (file: string): string =>
  (HASHED.test(basename(file)) || CHUNKS.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache');

// A weak validator from size and mtime, the form the `etag` package gives a file's stats; set here
// rather than through koa-etag, which prints a deprecation warning each time it is set up.
const weakEtag = (stats: Stats): string => `W/"${stats.size.toString(16)}-${stats.mtime.getTime().toString(16)}"`;

const setHeaders = (res: ServerResponse, file: string, stats: Stats): void => {
  res.setHeader('Cache-Control', cacheControl(file));
  res.setHeader('ETag', weakEtag(stats));
  res.setHeader('X-Content-Type-Options', 'nosniff');
};

const isHttpError = (e: unknown): e is { status: number; message: string } =>
  typeof e === 'object' && e !== null && typeof (e as { status?: unknown }).status === 'number';

export const staticApp = (root = join(packageRoot(), 'web-dist')): Koa.Middleware => {
  const serve: Koa.Middleware = async (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      ctx.body = { detail: `${quoted(ctx.method)} is not allowed on ${quoted(ctx.path)}; the app's files take GET and HEAD` };
      return;
    }
    const path = hasExtension(ctx.path) ? ctx.path : '/index.html';
    let served: string | undefined;
    try {
      served = await send(ctx, path, { root, hidden: false, setHeaders });
    } catch (e) {
      // koa-send throws 404 for a missing file, 400 for an undecodable path, 403 for one that leaves root
      if (!isHttpError(e) || e.status >= 500) throw e;
      if (e.status !== 404) {
        ctx.status = e.status;
        ctx.body = { detail: e.status === 400 ? 'malformed path' : `path not allowed: ${quoted(ctx.path)}` };
        return;
      }
    }
    if (served === undefined) notFound(ctx);
  };
  const fresh = conditional();
  return (ctx, next) => fresh(ctx, () => serve(ctx, next));
};
