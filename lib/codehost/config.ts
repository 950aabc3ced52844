// What the code host needs from the service's settings (Settings > CodeHost / CodeHostToken).
// `graphqlUrl` is the API endpoint (https://api.github.com/graphql, or an Enterprise host's
// https://<host>/api/graphql); `webHost` is the host name that appears in clone URLs and that
// decides whether a folder's origin is on this code host at all.
export interface CodeHostConfig {
  readonly graphqlUrl: string;
  readonly webHost: string;
  /** null: fall back to the GH_TOKEN environment variable, read at each call (see resolveToken) */
  readonly token: string | null;
}

// A stored token wins; otherwise GH_TOKEN, the variable `gh` itself reads, so a user who is
// already set up for the GitHub CLI needs no extra setting. Read per call, not at start, so a
// token exported after the server started still counts. Blank counts as none, at both places.
const present = (token: string | null | undefined): string | null => (token && token.trim() !== '' ? token.trim() : null);

export const resolveToken = (config: CodeHostConfig, env: NodeJS.ProcessEnv = process.env): string | null =>
  present(config.token) ?? present(env.GH_TOKEN);
