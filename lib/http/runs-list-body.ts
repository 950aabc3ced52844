import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

// The bytes of GET /api/runs (10,000 runs: ~2.7 MB of JSON), kept for the list version they were
// made from: a reader after no change gets the same Buffer again, and the gzip of a version is
// made once, off the event loop, however many clients ask for it.

const gzipAsync = promisify(gzip);

/** Below this a body goes as it is: gzip's header and the work cost more than they save. */
export const GZIP_FROM_BYTES = 1024;

export class RunsListBody {
  private version: string | null = null;
  private plain: Buffer | null = null;
  private zipped: Promise<Buffer> | null = null;

  /** `json` is called only when `version` is new, in the same tick, so the bytes match the version. */
  private at(version: string, json: () => string): Buffer {
    if (this.version !== version || !this.plain) {
      this.version = version;
      this.plain = Buffer.from(json());
      this.zipped = null;
    }
    return this.plain;
  }

  identity(version: string, json: () => string): Buffer {
    return this.at(version, json);
  }

  gzipped(version: string, json: () => string): Promise<Buffer> {
    const plain = this.at(version, json);
    if (!this.zipped) {
      const made = gzipAsync(plain);
      this.zipped = made;
      // A failed gzip is not kept: the next reader tries again.
      made.catch(() => { if (this.zipped === made) this.zipped = null; });
    }
    return this.zipped;
  }
}
