import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";

/** Options of {@link writeFileAtomic}. */
export interface WriteFileAtomicOptions {
  file: string;
  data: string;
}

/**
 * Replaces `file` with `data` atomically: writes `<file>.<random>.tmp`, fsyncs it, renames it over `file` and
 * fsyncs the directory (best effort). Readers see the old content or the new one, never a mix, even after a
 * crash; a crash before the rename leaves a stray `.tmp` file and the old content.
 */
export async function writeFileAtomic({ file, data }: WriteFileAtomicOptions): Promise<void> {
  const tmp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const handle = await open(tmp, "wx");
    try {
      await handle.writeFile(data, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(file));
}

async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not supported everywhere (Windows); the rename itself is still atomic.
  }
}
