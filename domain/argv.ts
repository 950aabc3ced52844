// What `spawn` cannot take, or would take to mean something else, in the notification command's
// argv: checked by the settings decoder (so the doors refuse it) and again before each run (so
// one stored by an older svc, or by hand, is a recorded failure, never a crash).

export const MAX_ARGV = 64;

// a program is an absolute path, or a plain name looked up on PATH; a relative path would
// depend on the server's working folder
const isProgram = (p: string): boolean => p.trim() === p && p !== '' && (p.startsWith('/') || (!p.includes('/') && p !== '.' && p !== '..'));

/** why this argv cannot run; null when it can. An empty argv is the command switched off. */
export const argvProblem = (argv: readonly unknown[]): string | null => {
  if (argv.length > MAX_ARGV) return `at most ${MAX_ARGV} arguments (got ${argv.length})`;
  const nul = argv.findIndex((a) => typeof a === 'string' && a.includes('\u0000'));
  if (nul >= 0) return `${nul === 0 ? 'the program' : `argument ${nul}`} holds a NUL byte (\\u0000), which no command can take`;
  if (argv.some((a) => typeof a !== 'string')) return 'every argument must be a string';
  const program = argv[0] as string | undefined;
  if (program !== undefined && !isProgram(program)) return `the program must be an absolute path or a plain name found on PATH, without blanks around it (got ${JSON.stringify(program.slice(0, 80))})`;
  return null;
};
