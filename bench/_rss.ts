// Resident memory of a server under test, read from Linux's /proc. The
// harness (./_servers.ts) keeps its children's process ids to itself, so the
// process is found the way `ss -ltnp` finds it: the listening socket on the
// server's port, then the child of this process that holds it.

const KIB = 1024;
const MIB = 1024 * 1024;

/** Resident memory of a process, in MiB. */
export interface Rss {
  /** VmRSS: resident now. */
  now: number;
  /** VmHWM: the most it was ever resident (its peak since it started). */
  peak: number;
}

/**
 * The id of the child of this process listening on `port` (127.0.0.1, TCP),
 * or null where /proc cannot tell (not Linux, or no such child).
 */
export function pidListeningOn(port: number): number | null {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return null;
  for (const pid of childPids()) {
    let fds: Deno.DirEntry[];
    try {
      fds = [...Deno.readDirSync(`/proc/${pid}/fd`)];
    } catch {
      continue; // exited meanwhile
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = Deno.readLinkSync(`/proc/${pid}/fd/${fd.name}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode !== undefined && inodes.has(inode)) return pid;
    }
  }
  return null;
}

/** VmRSS and VmHWM of `pid` in MiB, or null once it has exited. */
export function rssOf(pid: number): Rss | null {
  let status: string;
  try {
    status = Deno.readTextFileSync(`/proc/${pid}/status`);
  } catch {
    return null;
  }
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status)?.[1]);
  const now = kib("VmRSS");
  const peak = kib("VmHWM");
  if (!Number.isFinite(now) || !Number.isFinite(peak)) return null;
  return { now: (now * KIB) / MIB, peak: (peak * KIB) / MIB };
}

// Socket inodes in state LISTEN (0A) on `port`, IPv4 and IPv6.
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = Deno.readTextFileSync(table);
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (fields[3] !== "0A" || local === undefined) continue;
      if (parseInt(local.slice(local.lastIndexOf(":") + 1), 16) !== port) {
        continue;
      }
      inodes.add(fields[9]!);
    }
  }
  return inodes;
}

// The processes whose parent is this one: the servers the harness spawned.
function childPids(): number[] {
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      // pid (comm) state ppid …: comm may hold spaces, so read after ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === Deno.pid) pids.push(Number(entry.name));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}
