import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

// The version the MCP server reports in `initialize`, read once from package.json.
let cached: string | undefined;
export const serverVersion = (): string => {
  if (cached === undefined) {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: string };
    cached = pkg.version ?? '0.0.0';
  }
  return cached;
};
