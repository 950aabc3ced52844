import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type Koa from 'koa';
import { packageRoot } from '../package-root.js';

// The browser app: files of web-dist served as they are; any other path gets index.html, so the
// app's own routes (/runs/<id>) load the app.

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.json': 'application/json',
};

export const staticApp = (): Koa.Middleware => {
  const root = join(packageRoot(), 'web-dist');
  return async (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return;
    let path: string;
    try {
      path = decodeURIComponent(ctx.path);
    } catch {
      ctx.status = 400;
      ctx.body = { detail: 'malformed path' };
      return;
    }
    const wanted = normalize(join(root, path));
    const inside = wanted.startsWith(root + sep);
    const file = inside && existsSync(wanted) && statSync(wanted).isFile() ? wanted : join(root, 'index.html');
    if (!existsSync(file)) return;
    ctx.type = TYPES[extname(file)] ?? 'application/octet-stream';
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = createReadStream(file);
  };
};
