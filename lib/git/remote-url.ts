// Credentials written into a remote URL (`https://user:token@host/o/r.git`) are the person's
// secret: every remote URL or git message svc quotes (answers, log lines, events, the app) goes
// through here first, so a refusal never echoes a password. The user part goes too: tokens are
// often given as the user alone (`https://ghp_x@github.com/...`).

// scheme://userinfo@ — greedy up to the last `@` before the path, the query or a blank
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*(?:@[^\s/?#@]*)*@/gi;

/** `text` with the user and password of every URL in it replaced by `***` */
export const withoutCredentials = (text: string): string => text.replace(USERINFO, '$1***@');
