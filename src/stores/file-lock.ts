import { findNodeBuiltin } from "../util/node-builtin.js";
import { randomHex, randomUUID } from "../util/random-uuid.js";
import { nodeFs } from "./node-fs.js";
import type { SessionLock } from "./session-store.js";

/** Options of {@link acquireFileLock}. */
export interface AcquireFileLockOptions {
  /** The lock file. Its directory must exist. */
  path: string;
  /** How long the lock stays valid if its holder never releases it. */
  ttlMs: number;
}

/** What a lock file holds (one JSON object). */
interface LockContent {
  token: string;
  pid: number;
  /** Host name plus, on Linux, the pid namespace: where `pid` means something. */
  owner: string;
  expiresAt: number;
}

/** An empty or unparsable lock file younger than this is being written right now; older, it is stale. */
const UNPARSABLE_GRACE_MS = 2_000;

let ownerId: string | undefined;
function currentOwner(): string {
  if (ownerId === undefined) {
    let namespace = "";
    try {
      namespace = findNodeBuiltin("node:fs")?.readlinkSync("/proc/self/ns/pid") ?? "";
    } catch {
      // Not Linux: the host name alone.
    }
    ownerId = `${findNodeBuiltin("node:os")?.hostname() ?? ""}/${namespace}`;
  }
  return ownerId;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function parseContent(text: string): LockContent | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockContent> | null;
    if (
      typeof value?.token === "string" &&
      typeof value.pid === "number" &&
      typeof value.owner === "string" &&
      typeof value.expiresAt === "number"
    ) {
      return value as LockContent;
    }
  } catch {
    // Unparsable.
  }
  return undefined;
}

/**
 * True when the lock in `text` can be taken over: it expired, or its holder is a process on this machine (same
 * host and pid namespace) that no longer exists, or the file is unparsable and older than a short grace period.
 */
function isStale(text: string, mtimeMs: number, now: number): boolean {
  const content = parseContent(text);
  if (content === undefined) return now - mtimeMs > UNPARSABLE_GRACE_MS;
  if (content.expiresAt <= now) return true;
  return content.owner === currentOwner() && content.pid !== process.pid && !isAlive(content.pid);
}

async function readLock(path: string): Promise<{ text: string; mtimeMs: number } | undefined> {
  try {
    const handle = await nodeFs().open(path, "r");
    try {
      const [text, stats] = await Promise.all([handle.readFile("utf8"), handle.stat()]);
      return { text, mtimeMs: stats.mtimeMs };
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

async function createExclusive(path: string, text: string): Promise<boolean> {
  let handle: import("node:fs/promises").FileHandle;
  try {
    handle = await nodeFs().open(path, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    await handle.writeFile(text, "utf8");
  } catch (error) {
    await handle.close().catch(() => undefined);
    await nodeFs().rm(path, { force: true });
    throw error;
  }
  await handle.close();
  return true;
}

/**
 * Removes the lock file only if it still holds `expected`: it is first renamed aside (atomic, so two processes
 * cannot both remove it), then checked; a lock that changed in between is linked back. True when removed.
 */
async function removeIfUnchanged(path: string, matches: (text: string) => boolean): Promise<boolean> {
  const aside = `${path}.${randomHex(6)}.old`;
  try {
    await nodeFs().rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
  const moved = await readLock(aside);
  if (moved !== undefined && !matches(moved.text)) {
    // We moved someone else's fresh lock: put it back unless a new one appeared meanwhile.
    await nodeFs()
      .link(aside, path)
      .catch(() => undefined);
    await nodeFs().rm(aside, { force: true });
    return false;
  }
  await nodeFs().rm(aside, { force: true });
  return true;
}

/**
 * Takes a lock file shared by every process using the directory: created with `nodeFs().open(path, "wx")` (atomic
 * create-if-absent) and holding the holder's token, pid and expiry. A stale lock (expired, or held by a dead
 * process on this machine) is taken over. Resolves `undefined` at once when a live holder has it. `release`
 * removes the file only while it is still this holder's lock, and is idempotent. `renew` moves the expiry to
 * `ttlMs` from now while the file still holds this holder's token (written aside and renamed over it, so a
 * reader never sees a partial file), and resolves `false` once the lock was lost.
 */
export async function acquireFileLock({
  path,
  ttlMs,
}: AcquireFileLockOptions): Promise<SessionLock | undefined> {
  const token = randomUUID();
  for (let attempt = 0; attempt < 3; attempt++) {
    const content: LockContent = {
      token,
      pid: process.pid,
      owner: currentOwner(),
      expiresAt: Date.now() + ttlMs,
    };
    if (await createExclusive(path, JSON.stringify(content))) {
      let released = false;
      // A renewal in flight: release waits for it, or its rename could bring the removed lock file back.
      let renewing: Promise<boolean> | undefined;
      const renew = async (): Promise<boolean> => {
        const current = await readLock(path);
        const held = current === undefined ? undefined : parseContent(current.text);
        if (held?.token !== token || held.expiresAt <= Date.now()) return false;
        const aside = `${path}.${randomHex(6)}.renew`;
        try {
          await nodeFs().writeFile(aside, JSON.stringify({ ...held, expiresAt: Date.now() + ttlMs }), {
            flag: "wx",
          });
          await nodeFs().rename(aside, path);
        } catch (error) {
          await nodeFs()
            .rm(aside, { force: true })
            .catch(() => undefined);
          throw error;
        }
        return true;
      };
      return {
        release: async () => {
          if (released) return;
          released = true;
          await renewing?.catch(() => undefined);
          await removeIfUnchanged(path, (text) => parseContent(text)?.token === token);
        },
        renew: () => {
          if (released) return Promise.resolve(false);
          renewing ??= renew().finally(() => {
            renewing = undefined;
          });
          return renewing;
        },
      };
    }
    const existing = await readLock(path);
    if (existing === undefined) continue; // released meanwhile: try again
    if (!isStale(existing.text, existing.mtimeMs, Date.now())) return undefined;
    if (!(await removeIfUnchanged(path, (text) => text === existing.text))) return undefined;
  }
  return undefined;
}
