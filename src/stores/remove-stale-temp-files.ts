import { nodeFs, nodePath } from "./node-fs.js";

/** Options of {@link removeStaleTempFiles}. */
export interface RemoveStaleTempFilesOptions {
  /** The directory to sweep (not recursive). */
  dir: string;
  /** Temporary files older than this many milliseconds are removed (default 60 000). */
  olderThanMs?: number;
}

/** The default age past which a temporary file is considered abandoned. */
export const STALE_TEMP_FILE_MS = 60_000;

/**
 * Removes the temporary files (`*.tmp`, as written by `writeFileAtomic`) that a crash or a kill in the middle
 * of an atomic rewrite left in `dir`. Only files older than `olderThanMs` are touched: a younger one may be
 * a rewrite in progress in another process (a rewrite takes milliseconds, not a minute). Best effort: a
 * missing directory or a file that vanished meanwhile is fine; resolves the number of files removed.
 */
export async function removeStaleTempFiles({
  dir,
  olderThanMs = STALE_TEMP_FILE_MS,
}: RemoveStaleTempFilesOptions): Promise<number> {
  let names: string[];
  try {
    names = await nodeFs().readdir(dir);
  } catch {
    return 0;
  }
  const now = Date.now();
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith(".tmp")) continue;
    const file = nodePath().join(dir, name);
    const stats = await nodeFs()
      .stat(file)
      .catch(() => undefined);
    if (stats === undefined || !stats.isFile() || now - stats.mtimeMs < olderThanMs) continue;
    await nodeFs()
      .rm(file, { force: true })
      .then(
        () => removed++,
        () => undefined,
      );
  }
  return removed;
}
