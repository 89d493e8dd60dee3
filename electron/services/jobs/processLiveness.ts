/**
 * Whether the process that owns a job still lives. A pid alone is not enough (pids are
 * reused), so a job also records its owner's start identity: on Linux the start time in
 * clock ticks from /proc/PID/stat, which a reused pid cannot share. Where no /proc exists
 * the identity is unknown and a live pid counts as the owner while its heartbeat is fresh.
 */
import { readFileSync } from 'node:fs';

/** The owner counts as gone when its pid is reused elsewhere and no identity can tell: no heartbeat for this long. */
const STALE_HEARTBEAT_MS = 60 * 60_000;

/** The start identity of a process, or null where the platform does not tell it. */
export function processStartIdentity(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (the command) is in parentheses and may hold spaces: count fields after its ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null; // field 22, starttime
  } catch {
    return null;
  }
}

/** Signal 0 probes without sending anything; EPERM means the process exists (another user's). */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface Owner {
  pid: number | null;
  start: string | null;
  heartbeatAt: string | null;
}

export function ownerAlive({ pid, start, heartbeatAt }: Owner, now = Date.now()): boolean {
  if (pid === null || !pidExists(pid)) return false;
  const current = processStartIdentity(pid);
  if (start !== null && current !== null) return start === current;
  // No identity to compare: a live pid is the owner unless it has been silent for very long.
  return heartbeatAt === null || now - Date.parse(heartbeatAt) < STALE_HEARTBEAT_MS;
}
