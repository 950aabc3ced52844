import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

// `npm run build:web`: bundles the browser app (lib/web, TypeScript + Preact) into web-dist/, which
// is generated and not committed. Each page is its own chunk, loaded when first shown, so the first
// load stays small whatever a page pulls in. Files are written to a temporary name and renamed, so
// a server reading web-dist while a test process rebuilds it never sees half a file.

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_SRC = join(root, 'lib', 'web');
export const WEB_DIST = join(root, 'web-dist');

/** Files copied as they are. */
const STATIC = ['index.html', 'app.css', 'favicon.svg', 'favicon.ico'];

export interface WebBuild {
  /** file (relative to web-dist) -> bytes */
  readonly files: ReadonlyMap<string, number>;
  /** gzipped bytes of what the first load fetches: index.html, app.css, app.js and the chunks it imports statically */
  readonly firstLoadGzip: number;
}

const writeAtomically = (file: string, bytes: Uint8Array | string): void => {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, file);
};

// Chunk names carry a content hash, so a rebuild never overwrites a chunk a page may be loading. Old
// chunks go once they are old enough that no page started before this build can still want them.
const pruneChunks = (current: ReadonlySet<string>): void => {
  const dir = join(WEB_DIST, 'chunks');
  const cutoff = Date.now() - 10 * 60_000;
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (!current.has(join('chunks', name)) && statSync(file).mtimeMs < cutoff) rmSync(file, { force: true });
  }
};

export const buildWeb = async (o: { minify?: boolean } = {}): Promise<WebBuild> => {
  const result = await build({
    entryPoints: { app: join(WEB_SRC, 'main.tsx') },
    bundle: true,
    splitting: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    minify: o.minify ?? true,
    sourcemap: false,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: WEB_DIST,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    write: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
    absWorkingDir: root,
  });
  const files = new Map<string, number>();
  const gz = new Map<string, number>();
  for (const out of result.outputFiles) {
    writeAtomically(out.path, out.contents);
    const name = relative(WEB_DIST, out.path);
    files.set(name, out.contents.byteLength);
    gz.set(name, gzipSync(out.contents).byteLength);
  }
  for (const name of STATIC) {
    const bytes = readFileSync(join(WEB_SRC, name));
    writeAtomically(join(WEB_DIST, name), bytes);
    files.set(name, bytes.byteLength);
    gz.set(name, gzipSync(bytes).byteLength);
  }
  pruneChunks(new Set(files.keys()));
  // What the browser fetches before the first paint: the entry and its static imports, transitively.
  const outputs = result.metafile.outputs;
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const i of outputs[path]?.imports ?? []) if (i.kind === 'import-statement') visit(i.path);
  };
  const entry = Object.keys(outputs).find((p) => outputs[p]!.entryPoint !== undefined)!;
  visit(entry);
  let firstLoadGzip = gz.get('index.html')! + gz.get('app.css')!;
  for (const p of seen) firstLoadGzip += gz.get(relative(WEB_DIST, join(root, p))) ?? 0;
  return { files, firstLoadGzip };
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await buildWeb();
  const total = [...r.files.values()].reduce((a, b) => a + b, 0);
  console.log(`web-dist: ${r.files.size} files, ${(total / 1024).toFixed(1)} KB; first load ${(r.firstLoadGzip / 1024).toFixed(1)} KB gzipped`);
}
