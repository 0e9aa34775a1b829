import { randomHex } from "../util/random-uuid.js";
import { nodeFs, nodePath } from "./node-fs.js";

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
  const tmp = `${file}.${randomHex(6)}.tmp`;
  try {
    const handle = await nodeFs().open(tmp, "wx");
    try {
      await handle.writeFile(data, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await nodeFs().rename(tmp, file);
  } catch (error) {
    await nodeFs()
      .rm(tmp, { force: true })
      .catch(() => undefined);
    throw error;
  }
  await syncDirectory(nodePath().dirname(file));
}

async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await nodeFs().open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not supported everywhere (Windows); the rename itself is still atomic.
  }
}
