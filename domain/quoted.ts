// Input quoted in a message: a refusal names what it refused, but a 900 KB name must not come back
// as a 900 KB answer. At most QUOTE_CHARS characters of it, then an ellipsis.

export const QUOTE_CHARS = 100;
/** the longest `detail` either door answers: the net under every message that quotes input */
export const DETAIL_CHARS = 1000;

const clip = (s: string, max: number): string => {
  if (s.length <= max) return s;
  // cut on a code point, never inside a surrogate pair
  return `${Array.from(s.slice(0, max + 1)).slice(0, max).join('')}…`;
};

/** any input, shortened to a prefix fit to quote */
export const quoted = (s: unknown): string => clip(typeof s === 'string' ? s : String(s), QUOTE_CHARS);

/** a whole detail, capped: the last safety net where HTTP and MCP answers are built */
export const cappedDetail = (detail: string): string => clip(detail, DETAIL_CHARS);
