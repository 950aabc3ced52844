import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

const encode = (n: bigint, width: number): string => {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = ALPHABET[Number(n % 32n)] + out;
    n /= 32n;
  }
  return out;
};

let lastTime = 0;
let lastSeq = 0;

// Time-ordered ids: sorting ids sorts by creation, which keeps LMDB ranges, listings and queue
// ties in order. Within one millisecond a counter keeps them monotonic; random bits follow.
export const newId = (prefix: string, now: number = Date.now()): string => {
  const time = Math.max(now, lastTime);
  lastSeq = time === lastTime ? lastSeq + 1 : 0;
  lastTime = time;
  const rand = BigInt('0x' + randomBytes(4).toString('hex'));
  return `${prefix}${encode(BigInt(time), 9)}${encode(BigInt(lastSeq), 3)}${encode(rand, 6)}`;
};

export const newToken = (): string => randomBytes(32).toString('base64url');
