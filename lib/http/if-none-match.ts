// If-None-Match against the current ETag, as RFC 9110 13.1.2 has an origin server evaluate it:
// weak comparison, a list of tags, or `*`. Koa's `ctx.fresh` is not used: it answers "stale"
// whenever the request says Cache-Control: no-cache, and fetch adds exactly that to any request
// carrying If-None-Match, so a script's conditional GET would never get its 304.

const opaque = (tag: string): string => (tag.startsWith('W/') ? tag.slice(2) : tag);

export const noneMatchHas = (header: string | undefined, etag: string): boolean => {
  if (!header) return false;
  const want = opaque(etag.trim());
  return header.split(',').some((raw) => {
    const tag = raw.trim();
    return tag === '*' || opaque(tag) === want;
  });
};
