import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { throwIfAborted } from "../errors/abort-error.js";
import { SandboxError } from "../errors/sandbox-error.js";
import { type Tool, tool } from "../tools/tool.js";
import { checkSecretPath, hardLinkError } from "./check-file-access.js";
import { describeFsError } from "./describe-fs-error.js";
import {
  type FileToolsOptions,
  type ResolvedFileToolsOptions,
  resolveFileToolsOptions,
} from "./file-tools-options.js";
import { MAX_SANDBOX_PATH_LENGTH, resolveSandboxPath } from "./resolve-sandbox-path.js";
import { holdsPrivateKey } from "./secret-paths.js";

/** Arguments of the `read_file` tool. */
export interface ReadFileArgs extends Record<string, unknown> {
  /** A path relative to the sandbox root. */
  path: string;
  /** The byte to start at. Default 0. */
  offset?: number;
  /** How many bytes to read at most (capped at `maxReadBytes`). Default `maxReadBytes`. */
  length?: number;
}

/** `O_NOFOLLOW` refuses a final component that became a symbolic link; not available on Windows (0). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
/** `O_NONBLOCK` keeps an open of a FIFO from hanging; no effect on regular files. */
const NON_BLOCK = constants.O_NONBLOCK ?? 0;
/** Room for the note appended to a partial read. */
const NOTE_ROOM = 500;

/** The end of the longest prefix of `bytes[0, end)` that does not cut a UTF-8 sequence in two. */
function utf8End(bytes: Buffer, end: number): number {
  let start = end - 1;
  // Step back over at most 3 continuation bytes to the lead byte of the last sequence.
  while (start >= 0 && end - start <= 3 && ((bytes[start] as number) & 0xc0) === 0x80) start--;
  if (start < 0) return end;
  const lead = bytes[start] as number;
  const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return start + size > end ? start : end;
}

async function readPart(
  config: ResolvedFileToolsOptions,
  args: ReadFileArgs,
  signal: AbortSignal | undefined,
): Promise<string> {
  const target = await resolveSandboxPath({ root: config.root, path: args.path });
  const shown = JSON.stringify(target.relative);
  if (target.stats === undefined) throw new Error(`ENOENT: ${shown}: no such file or directory`);
  if (target.stats.isDirectory()) throw new Error(`${shown} is a directory; use list_dir to see its entries`);
  if (!target.stats.isFile()) throw new Error(`${shown} is not a regular file`);
  checkSecretPath({ config, target, requested: args.path, tool: "read_file" });
  throwIfAborted(signal);
  const handle = await open(target.real, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new Error(`${shown} is not a regular file`);
    // Checked on the opened file: the links counted are those of the file that is read.
    if (stats.nlink > 1 && !config.allowHardLinkedReads) {
      throw hardLinkError({
        requested: args.path,
        links: stats.nlink,
        tool: "read_file",
        optIn: "allowHardLinkedReads: true reads them",
      });
    }
    const size = stats.size;
    const offset = args.offset ?? 0;
    if (offset > size) throw new Error(`offset ${offset} is past the end of ${shown} (${size} bytes)`);
    const want = Math.min(args.length ?? config.maxReadBytes, config.maxReadBytes, size - offset);
    const buffer = Buffer.alloc(want);
    let filled = 0;
    while (filled < want) {
      const { bytesRead } = await handle.read(buffer, filled, want - filled, offset + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
      throwIfAborted(signal);
    }
    if (buffer.subarray(0, filled).includes(0)) {
      throw new Error(`${shown} looks like a binary file (it contains NUL bytes); read_file reads text only`);
    }
    const end = offset + filled < size ? utf8End(buffer, filled) : filled;
    const text = buffer.toString("utf8", 0, end);
    if (!config.allowSecretFiles && holdsPrivateKey(text)) {
      throw new SandboxError({
        path: args.path,
        reason: "it holds a private key; read_file refuses such files (allowSecretFiles: true permits them)",
      });
    }
    const next = offset + end;
    if (next >= size) return text;
    const capped = args.length === undefined || args.length > config.maxReadBytes;
    const limit = capped ? ` (at most ${config.maxReadBytes} bytes per call)` : "";
    return `${text}\n\n[read_file: showed bytes ${offset}-${next} of ${size}${limit}; call read_file with offset ${next} to read more]`;
  } finally {
    await handle.close();
  }
}

/**
 * Creates the `read_file` tool: reads a UTF-8 text file inside the sandbox root (see {@link fileTools} for the
 * sandbox rules). Returns at most `maxReadBytes` bytes per call, never cutting a character in two; a file
 * that does not fit ends with a note giving the `offset` to continue at. Files containing NUL bytes are
 * refused as binary. The final path component is opened with `O_NOFOLLOW` (POSIX), so a file swapped for a
 * symbolic link after the check is refused; see {@link fileTools} for the race that remains.
 */
export function readFileTool(options: FileToolsOptions = {}): Tool<ReadFileArgs, string> {
  const config = resolveFileToolsOptions(options);
  return tool<ReadFileArgs, string>({
    name: "read_file",
    description:
      "Reads a UTF-8 text file. The path is relative to the workspace root. Returns at most " +
      `${config.maxReadBytes} bytes per call; for longer files pass offset (and length) in bytes to read the rest.`,
    parameters: {
      type: "object",
      properties: {
        path: {
          type: "string",
          minLength: 1,
          maxLength: MAX_SANDBOX_PATH_LENGTH,
          description: "File path relative to the workspace root, e.g. src/index.ts",
        },
        offset: { type: "integer", minimum: 0, description: "Byte offset to start reading at (default 0)" },
        length: { type: "integer", minimum: 1, description: "Maximum number of bytes to read" },
      },
      required: ["path"],
      additionalProperties: false,
    },
    idempotent: true,
    // The byte limit bounds the result; the note must survive, so the executor's default cut must not apply.
    maxResultChars: config.maxReadBytes + NOTE_ROOM,
    execute: async (args, ctx) => {
      try {
        return await readPart(config, args, ctx.signal);
      } catch (error) {
        throw describeFsError({ error, path: args.path });
      }
    },
  });
}
