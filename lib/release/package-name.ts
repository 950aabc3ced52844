import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

// The npm name of this package: the default release feed is its registry document.
export interface PackageId {
  readonly name: string;
  /** `private: true` in package.json: never published, so the registry's document of that name is someone else's */
  readonly unpublished: boolean;
}

let cached: PackageId | undefined;
export const packageId = (): PackageId =>
  (cached ??= ((pkg: { name: string; private?: boolean }) => ({ name: pkg.name, unpublished: pkg.private === true }))(
    JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { name: string; private?: boolean },
  ));
