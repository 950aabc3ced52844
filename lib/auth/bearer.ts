import { createHash, timingSafeEqual } from 'node:crypto';

/** the credential of an `Authorization: Bearer <x>` header, or null */
export const bearerToken = (header: string | undefined): string | null => {
  if (!header) return null;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return m ? m[1] : null;
};

// Hashing first makes both sides the same length, so timingSafeEqual never throws and the
// comparison time does not reveal the secret's length or a matching prefix.
export const secretsEqual = (expected: string, candidate: string): boolean =>
  timingSafeEqual(createHash('sha256').update(expected).digest(), createHash('sha256').update(candidate).digest());
