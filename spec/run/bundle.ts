import { build, transform, type Plugin } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

// Test files bundled once with esbuild (as tsx would compile them, module by module), so a test
// process loads one file per spec instead of resolving and compiling every module of lib/ through
// tsx's loader hooks. Each module keeps its own idea of where it lives: `import.meta.url` and
// `import.meta.dirname` are replaced by the source file's own, so paths found from them (the
// repository, fixtures, web-dist) are the same as when the sources run.

// esbuild's own parser does the replacing (a transform with define), so the words in a string or a
// comment stay as written.
const ownPlace = (tsconfigRaw: string): Plugin => ({
  name: 'own-place',
  setup(b) {
    b.onLoad({ filter: /\.tsx?$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      const loader = path.endsWith('x') ? 'tsx' : 'ts';
      if (!text.includes('import.meta')) return { contents: text, loader };
      const own = { 'import.meta.url': JSON.stringify(pathToFileURL(path).href), 'import.meta.dirname': JSON.stringify(dirname(path)) };
      const js = await transform(text, { loader, define: own, tsconfigRaw, sourcefile: path, sourcemap: 'inline', format: 'esm' });
      return { contents: js.code, loader: 'js' };
    });
  },
});

/** Bundles `files` (relative to `root`) under `out`, each at its own relative path with .mjs */
export const bundleSpecs = async (root: string, files: readonly string[], out: string, inject: readonly string[] = []): Promise<void> => {
  await build({
    entryPoints: files.map((f) => ({ in: join(root, f), out: f.replace(/\.ts$/, '') })),
    outdir: out, outExtension: { '.js': '.mjs' }, inject: [...inject],
    bundle: true, splitting: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external',
    // its map in a file beside it, read only under --enable-source-maps: inline, the 11 MB of it cost each child 0.12 s of CPU to read
    sourcemap: 'linked', logLevel: 'error', plugins: [ownPlace(await readFile(join(root, 'tsconfig.json'), 'utf8'))],
  });
};

/**
 * packages the CLI's bundle leaves to node_modules: native code (lmdb and its msgpackr, which find
 * their binaries beside their own files) and optional platform packages
 */
const UNBUNDLED = ['lmdb', 'msgpackr', 'msgpackr-extract', 'fsevents', 'playwright-core'];

/**
 * The `svc` entry `entry` (relative to `root`) as one file at `outfile`, the packages it uses bundled
 * in too but for UNBUNDLED: a child started from it reads one file where it read some hundreds from
 * node_modules, resolving each (measured: `svc serve` ready on 0.42 s of CPU instead of 0.85). The
 * fixtures it imports by path are the spec bundles' (their few lib modules are their own copies).
 */
export const bundleCli = async (root: string, entry: string, outfile: string): Promise<void> => {
  await build({
    entryPoints: [join(root, entry)], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', external: UNBUNDLED,
    // the CommonJS packages bundled in ask for `require`, which an ES module has only when made
    banner: { js: "import { createRequire as svcCreateRequire } from 'node:module'; const require = svcCreateRequire(import.meta.url);" },
    // its map in a file beside it, read only under --enable-source-maps: inline, the 11 MB of it cost each child 0.12 s of CPU to read
    sourcemap: 'linked', logLevel: 'error', plugins: [ownPlace(await readFile(join(root, 'tsconfig.json'), 'utf8'))],
  });
};
