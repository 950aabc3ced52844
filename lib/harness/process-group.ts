// Process groups seen through /proc (Linux): what a restart needs to end the agent processes a
// crashed server left behind, and never anyone else's. A pid alone is not an identity (pids are
// reused), so each group leader is recorded with its start time: field 22 of /proc/<pid>/stat,
// clock ticks since boot, which differs for any later process given the same pid.
import { readdirSync, readFileSync } from 'node:fs';

export interface GroupLeader {
  readonly pid: number;
  /** /proc/<pid>/stat field 22 (start time in clock ticks since boot), as text */
  readonly startTime: string;
}

interface ProcStat { readonly pid: number; readonly pgid: number; readonly startTime: string }

// The command name (field 2) is in parentheses and may hold spaces or ')': split after the last ')'.
const readStat = (pid: number): ProcStat | undefined => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // rest[0] is field 3 (state), so field N is rest[N - 3]
    const state = rest[0];
    if (state === 'Z' || state === 'X') return undefined; // a zombie is already gone
    return { pid, pgid: Number(rest[2]), startTime: rest[19] ?? '' };
  } catch {
    return undefined;
  }
};

export const procStartTime = (pid: number): string | undefined => readStat(pid)?.startTime;

const allStats = (): ProcStat[] =>
  readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .map((p) => readStat(Number(p)))
    .filter((s): s is ProcStat => s !== undefined);

const ticks = (s: string): bigint => (/^\d+$/.test(s) ? BigInt(s) : -1n);

/**
 * The living processes of the group `leader` led. If the leader lives, it must be the same process
 * (same start time), else the pid was reused and the group is not ours. If the leader is gone, a
 * group id is not handed out again while any member lives, so members that started no earlier than
 * the leader are still its group.
 */
export const groupMembers = (leader: GroupLeader): number[] => {
  const now = readStat(leader.pid);
  if (now && now.startTime !== leader.startTime) return [];
  const since = ticks(leader.startTime);
  return allStats().filter((s) => s.pgid === leader.pid && ticks(s.startTime) >= since).map((s) => s.pid);
};

const signalGroup = (pgid: number, sig: NodeJS.Signals): void => {
  try {
    process.kill(-pgid, sig);
  } catch {
    // already gone
  }
};

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const goneWithin = async (leader: GroupLeader, ms: number): Promise<boolean> => {
  const end = Date.now() + ms;
  while (groupMembers(leader).length > 0) {
    if (Date.now() > end) return false;
    await sleep(50);
  }
  return true;
};

/**
 * Ends what is left of a recorded group: SIGTERM, then SIGKILL after `graceMs`, and waits until no
 * member is left. Answers how many processes there were (0: nothing was left, nothing was sent).
 */
export const endGroup = async (leader: GroupLeader, graceMs = 3000): Promise<{ readonly processes: number; readonly gone: boolean }> => {
  const members = groupMembers(leader);
  if (members.length === 0) return { processes: 0, gone: true };
  signalGroup(leader.pid, 'SIGTERM');
  if (await goneWithin(leader, graceMs)) return { processes: members.length, gone: true };
  signalGroup(leader.pid, 'SIGKILL');
  return { processes: members.length, gone: await goneWithin(leader, 10_000) };
};
