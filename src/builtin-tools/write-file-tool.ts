import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { mkdir, open, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { throwIfAborted } from "../errors/abort-error.js";
import { type Tool, tool } from "../tools/tool.js";
import { checkSecretPath, hardLinkError } from "./check-file-access.js";
import { describeFsError } from "./describe-fs-error.js";
import {
  type FileToolsOptions,
  type ResolvedFileToolsOptions,
  resolveFileToolsOptions,
} from "./file-tools-options.js";
import { MAX_SANDBOX_PATH_LENGTH, resolveSandboxPath, type SandboxPath } from "./resolve-sandbox-path.js";

/** Arguments of the `write_file` tool. */
export interface WriteFileArgs extends Record<string, unknown> {
  /** A path relative to the sandbox root; missing parent directories are created. */
  path: string;
  /** The text to write (UTF-8). */
  content: string;
  /** Append to the file instead of replacing it. Default false. */
  append?: boolean;
}

/** `O_NOFOLLOW` refuses a final component that became a symbolic link; not available on Windows (0). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** Checks that `target` can be written as a regular file of the workspace. */
function checkWritable(config: ResolvedFileToolsOptions, target: SandboxPath, requested: string): void {
  const shown = JSON.stringify(target.relative);
  if (target.relative === ".") throw new Error("Cannot write to the workspace root itself; give a file path");
  if (target.stats?.isDirectory()) throw new Error(`${shown} is a directory`);
  if (target.stats !== undefined && !target.stats.isFile()) throw new Error(`${shown} is not a regular file`);
  if (target.stats !== undefined && target.stats.nlink > 1) {
    throw hardLinkError({ requested, links: target.stats.nlink, tool: "write_file" });
  }
  checkSecretPath({ config, target, requested, tool: "write_file" });
}

/** Writes `data` to a temporary file beside `real` and renames it over `real`. */
async function replaceAtomically(real: string, data: Buffer, mode: number | undefined): Promise<void> {
  const temporary = path.join(
    path.dirname(real),
    `.${path.basename(real)}.${randomBytes(6).toString("hex")}.tmp`,
  );
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;
  const handle = await open(temporary, flags, 0o666);
  let renamed = false;
  try {
    if (mode !== undefined) await handle.chmod(mode);
    await handle.writeFile(data);
    await handle.datasync();
    await handle.close();
    await rename(temporary, real);
    renamed = true;
  } finally {
    if (!renamed) {
      await handle.close().catch(() => {});
      await unlink(temporary).catch(() => {});
    }
  }
}

async function writeContent(
  config: ResolvedFileToolsOptions,
  args: WriteFileArgs,
  signal: AbortSignal | undefined,
): Promise<string> {
  const data = Buffer.from(args.content, "utf8");
  if (data.length > config.maxWriteBytes) {
    throw new Error(
      `The content is ${data.length} bytes, more than the limit of ${config.maxWriteBytes} bytes`,
    );
  }
  const first = await resolveSandboxPath({ root: config.root, path: args.path });
  checkWritable(config, first, args.path);
  throwIfAborted(signal);
  if (first.stats === undefined) await mkdir(path.dirname(first.real), { recursive: true });
  // Resolve again: the directories now exist, and a parent swapped for a link meanwhile is caught here.
  const target = await resolveSandboxPath({ root: config.root, path: args.path });
  checkWritable(config, target, args.path);
  throwIfAborted(signal);
  const shown = JSON.stringify(target.relative);
  if (args.append === true) {
    const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NO_FOLLOW;
    const handle = await open(target.real, flags, 0o666);
    try {
      // A hard link made between the check and the open would let the append reach a file outside the root.
      const { nlink } = await handle.stat();
      if (nlink > 1) throw hardLinkError({ requested: args.path, links: nlink, tool: "write_file" });
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
    return `Appended ${data.length} bytes to ${shown}`;
  }
  await replaceAtomically(
    target.real,
    data,
    target.stats === undefined ? undefined : target.stats.mode & 0o7777,
  );
  return `Wrote ${data.length} bytes to ${shown}${target.stats === undefined ? " (new file)" : ""}`;
}

/**
 * Creates the `write_file` tool: writes UTF-8 text to a file inside the sandbox root (see {@link fileTools}
 * for the sandbox rules), creating missing parent directories inside the root. Content larger than
 * `maxWriteBytes` is refused. Replacing writes are atomic for readers: the text goes to a temporary file in
 * the same directory (opened with `O_EXCL | O_NOFOLLOW`), which is synced and renamed over the target (an
 * existing file keeps its permission bits; on failure the temporary file is removed). Appending opens the
 * target with `O_APPEND | O_NOFOLLOW`. `needsApprovalForWrite` makes every call need approval. The tool is
 * `sequential`: it never runs beside another call, so reads of the same turn see the write in order.
 */
export function writeFileTool(options: FileToolsOptions = {}): Tool<WriteFileArgs, string> {
  const config = resolveFileToolsOptions(options);
  return tool<WriteFileArgs, string>({
    name: "write_file",
    description:
      "Writes UTF-8 text to a file, replacing it (or appending with append: true). The path is relative to " +
      `the workspace root; missing directories are created. At most ${config.maxWriteBytes} bytes.`,
    parameters: {
      type: "object",
      properties: {
        path: {
          type: "string",
          minLength: 1,
          maxLength: MAX_SANDBOX_PATH_LENGTH,
          description: "File path relative to the workspace root, e.g. notes/todo.md",
        },
        content: { type: "string", description: "The full text to write" },
        append: { type: "boolean", description: "Append to the end of the file instead of replacing it" },
      },
      required: ["path", "content"],
      additionalProperties: false,
    },
    needsApproval: config.needsApprovalForWrite,
    sequential: true,
    execute: async (args, ctx) => {
      try {
        return await writeContent(config, args, ctx.signal);
      } catch (error) {
        throw describeFsError({ error, path: args.path });
      }
    },
  });
}
