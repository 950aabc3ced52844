import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

// The npm name of this package: the default release feed is its registry document.
let cached: string | undefined;
export const packageName = (): string =>
  (cached ??= (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { name: string }).name);
