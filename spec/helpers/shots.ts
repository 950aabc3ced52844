import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';

// Screenshots are for a person to look at, and nothing asserts on them: they are taken only when
// SVC_SHOTS names a folder (`SVC_SHOTS=/tmp/shots npm test -- spec/web/ship.test.ts`). A full-page
// screenshot costs the browser about 0.13 s of CPU, and the suite took a hundred-odd of them on
// every run, on two cores it is bound by.

/** what can be photographed: a page, or a locator (which is waited for first) */
interface Photographable {
  screenshot(o: { path: string; fullPage?: boolean }): Promise<unknown>;
  waitFor?(): Promise<void>;
}

/**
 * A screenshot into $SVC_SHOTS under the file name of `path`; without SVC_SHOTS none is taken, but a
 * locator is still waited for, as its screenshot would have (a test may count on that wait).
 */
export const shot = async (target: Photographable, path: string, o: { fullPage?: boolean } = {}): Promise<void> => {
  const dir = process.env['SVC_SHOTS'];
  if (!dir) {
    if (target.waitFor) await target.waitFor();
    return;
  }
  mkdirSync(dir, { recursive: true });
  await target.screenshot({ path: join(dir, basename(path)), ...o });
};
