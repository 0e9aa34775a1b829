import { nodeFs } from "./node-fs.js";

/** Options of {@link appendToFile}. */
export interface AppendToFileOptions {
  /** The JSONL file (created when missing; its directory must exist). */
  file: string;
  /** Complete lines, each ending in `\n`. */
  text: string;
  /** `fsync` before resolving, so the lines survive a power loss too (a process crash never loses them). */
  sync: boolean;
}

const TAIL_CHUNK = 64 * 1024;

/**
 * Appends complete lines to a JSONL file with one `write` call, so a crash leaves at most a torn last line.
 * Before writing, an unterminated tail left by an earlier crash is repaired: dropped when it is not valid JSON
 * (a torn line, which `load` ignores anyway), terminated with `\n` when it is (a hand-edited file). If the write
 * fails or comes up short (disk full), the file is truncated back, so nothing partial is left behind.
 */
export async function appendToFile({ file, text, sync }: AppendToFileOptions): Promise<void> {
  const handle = await nodeFs().open(file, "a+");
  try {
    const start = await repairTail(handle, (await handle.stat()).size);
    const buffer = Buffer.from(text, "utf8");
    try {
      const { bytesWritten } = await handle.write(buffer, 0, buffer.length, null);
      if (bytesWritten !== buffer.length) {
        throw new Error(`short write (${bytesWritten} of ${buffer.length} bytes)`);
      }
      if (sync) await handle.datasync();
    } catch (error) {
      await handle.truncate(start).catch(() => undefined);
      throw error;
    }
  } finally {
    await handle.close();
  }
}

type Handle = import("node:fs/promises").FileHandle;

/** How long an unterminated tail is watched before it is taken for a crash's torn line. */
const TORN_TAIL_SETTLE_MS = 20;

/**
 * Makes the file end with `\n` (or be empty); returns its size afterwards. An unterminated tail may be another
 * process's append being written right now (a reader can see part of a concurrent write): it is repaired only
 * once the file has stopped growing for a moment, so a concurrent append is never cut.
 */
async function repairTail(handle: Handle, size: number, tries = 5): Promise<number> {
  if (size === 0) return 0;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  if (last[0] === 0x0a) return size;
  if (tries > 0) {
    await new Promise((resolve) => setTimeout(resolve, TORN_TAIL_SETTLE_MS));
    const now = (await handle.stat()).size;
    if (now !== size) return repairTail(handle, now, tries - 1);
  }
  // Find the last newline, reading backwards.
  let lineStart = 0;
  const chunk = Buffer.alloc(TAIL_CHUNK);
  for (let end = size; end > 0; end -= TAIL_CHUNK) {
    const from = Math.max(0, end - TAIL_CHUNK);
    const { bytesRead } = await handle.read(chunk, 0, end - from, from);
    const index = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (index !== -1) {
      lineStart = from + index + 1;
      break;
    }
  }
  const tail = Buffer.alloc(size - lineStart);
  await handle.read(tail, 0, tail.length, lineStart);
  let complete = true;
  try {
    JSON.parse(tail.toString("utf8"));
  } catch {
    complete = false;
  }
  if (complete) {
    await handle.write(Buffer.from("\n"), 0, 1, null);
    return size + 1;
  }
  await handle.truncate(lineStart);
  return lineStart;
}
