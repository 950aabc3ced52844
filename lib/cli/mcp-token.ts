import { ensureToken, regenerateToken } from '../auth/mcp-token.js';

// `svc mcp token [--regenerate]`: prints the tool endpoint's token (creating it when missing).
// After --regenerate every registered client must be given the new token; a running server
// refuses the old one from its next request on.

export type Write = (text: string) => void;

const USAGE = 'usage: svc mcp token [--regenerate]\n';

export const mcpTokenCommand = (
  args: readonly string[],
  home: string,
  out: Write = (s) => process.stdout.write(s),
  err: Write = (s) => process.stderr.write(s),
): number => {
  const unknown = args.filter((a) => a !== '--regenerate');
  if (unknown.length > 0) {
    err(`unknown argument: ${unknown[0]}\n${USAGE}`);
    return 2;
  }
  const token = args.includes('--regenerate') ? regenerateToken(home) : ensureToken(home);
  out(`${token}\n`);
  return 0;
};
