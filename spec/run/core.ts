import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { coreTestFiles } from './core-files.js';

// `npm run test:core`: the spine's tests (commands, projections, journal, the layout) for the
// edit-test loop. Loading TypeScript through tsx costs each test file a fresh process; here each
// file is bundled once with esbuild (as tsx would compile it) and ava runs the bundles in worker
// threads, one process. The guard (spec/helpers/core-only.ts) is bundled first in every file, so a
// core test that starts a server, a process or a browser still fails at once.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'dist', 'core-spec');

const bundle = async (file: string): Promise<void> => {
  const source = join(root, file);
  await build({
    entryPoints: [source], inject: [join(root, 'spec/helpers/core-only.ts')],
    bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', sourcemap: true, logLevel: 'error',
    // every core test file sits two folders below the root (the layout test one, with its script one
    // below): the bundle keeps each module's own idea of where the repository is
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(source).href), 'import.meta.dirname': JSON.stringify(dirname(source)) },
    outfile: join(out, file.replace(/\.ts$/, '.mjs')),
  });
};

// `npm run test:core -- spec/commands/x.test.ts` runs that file's bundle
const bundled = (arg: string): string => (arg.endsWith('.test.ts') ? relative(root, join(out, arg.replace(/\.ts$/, '.mjs'))) : arg);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const files = coreTestFiles(root);
await Promise.all(files.map(bundle));
writeFileSync(join(out, 'ava.config.mjs'), `export default ${JSON.stringify({ files: files.map((f) => relative(root, join(out, f.replace(/\.ts$/, '.mjs')))), workerThreads: true, timeout: '1m', environmentVariables: { SVC_RELEASE_FEED: 'off' } })};\n`);
const ava = spawnSync(process.execPath, [join(root, 'node_modules/ava/entrypoints/cli.mjs'), '--config', join(out, 'ava.config.mjs'), ...process.argv.slice(2).map(bundled)], { cwd: root, stdio: 'inherit' });
process.exit(ava.status ?? 1);
