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
    sourcemap: 'inline', logLevel: 'error', plugins: [ownPlace(await readFile(join(root, 'tsconfig.json'), 'utf8'))],
  });
};
