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

// Time-ordered ids: sorting ids sorts by creation, which keeps LMDB ranges and listings in order.
export const newId = (prefix: string, now: number = Date.now()): string => {
  const rand = BigInt('0x' + randomBytes(5).toString('hex'));
  return `${prefix}${encode(BigInt(now), 9)}${encode(rand, 8)}`;
};

export const newToken = (): string => randomBytes(32).toString('base64url');
