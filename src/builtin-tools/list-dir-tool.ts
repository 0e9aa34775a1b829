import type { Dirent } from "node:fs";
import { opendir, realpath } from "node:fs/promises";
import path from "node:path";
import { throwIfAborted } from "../errors/abort-error.js";
import { type Tool, tool } from "../tools/tool.js";
import { describeFsError } from "./describe-fs-error.js";
import {
  type FileToolsOptions,
  type ResolvedFileToolsOptions,
  resolveFileToolsOptions,
} from "./file-tools-options.js";
import { isInsideRoot, MAX_SANDBOX_PATH_LENGTH, resolveSandboxPath } from "./resolve-sandbox-path.js";

/** Arguments of the `list_dir` tool. */
export interface ListDirArgs extends Record<string, unknown> {
  /** A directory relative to the sandbox root. Default `"."` (the root). */
  path?: string;
  /** List subdirectories too (symbolic links are listed, never followed). Default false. */
  recursive?: boolean;
  /** Stop after this many entries. Default 500, at most 5000. */
  maxEntries?: number;
}

/** Default of {@link ListDirArgs.maxEntries}. */
export const DEFAULT_LIST_ENTRIES = 500;
/** The largest {@link ListDirArgs.maxEntries} the model may ask for. */
export const MAX_LIST_ENTRIES = 5000;

interface Listing {
  readonly root: string;
  readonly max: number;
  readonly recursive: boolean;
  readonly signal: AbortSignal | undefined;
  readonly lines: string[];
  truncated: boolean;
}

/** Reads at most `limit` entries of a directory (in the order the file system gives them). */
async function readEntries(directory: string, limit: number): Promise<{ entries: Dirent[]; more: boolean }> {
  const entries: Dirent[] = [];
  const dir = await opendir(directory, { bufferSize: 64 });
  try {
    for (let entry = await dir.read(); entry !== null; entry = await dir.read()) {
      if (entries.length === limit) return { entries, more: true };
      entries.push(entry);
    }
  } finally {
    await dir.close().catch(() => {});
  }
  return { entries, more: false };
}

function suffix(entry: Dirent): string {
  if (entry.isDirectory()) return "/";
  return entry.isSymbolicLink() ? "@" : "";
}

async function walk(listing: Listing, directory: string, prefix: string): Promise<void> {
  throwIfAborted(listing.signal);
  const room = listing.max - listing.lines.length;
  const { entries, more } = await readEntries(directory, room);
  if (more) listing.truncated = true;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (listing.lines.length >= listing.max) {
      listing.truncated = true;
      return;
    }
    listing.lines.push(`${prefix}${entry.name}${suffix(entry)}`);
    if (!listing.recursive || !entry.isDirectory()) continue;
    const child = path.join(directory, entry.name);
    // The entry was a real directory when read; check again so a directory swapped for a link is not entered.
    if (!isInsideRoot({ root: listing.root, target: await realpath(child) })) continue;
    await walk(listing, child, `${prefix}${entry.name}/`);
  }
}

async function list(
  config: ResolvedFileToolsOptions,
  args: ListDirArgs,
  signal: AbortSignal | undefined,
): Promise<string> {
  const target = await resolveSandboxPath({ root: config.root, path: args.path ?? "." });
  const shown = JSON.stringify(target.relative);
  if (target.stats === undefined) throw new Error(`ENOENT: ${shown}: no such file or directory`);
  if (!target.stats.isDirectory()) throw new Error(`${shown} is not a directory; use read_file for files`);
  const max = Math.min(args.maxEntries ?? DEFAULT_LIST_ENTRIES, MAX_LIST_ENTRIES);
  const listing: Listing = {
    root: target.root,
    max,
    recursive: args.recursive === true,
    signal,
    lines: [],
    truncated: false,
  };
  await walk(listing, target.real, "");
  if (listing.lines.length === 0) return "(empty directory)";
  const text = listing.lines.join("\n");
  if (!listing.truncated) return text;
  return `[list_dir: stopped after ${max} entries; list a subdirectory or pass a larger maxEntries (up to ${MAX_LIST_ENTRIES})]\n${text}`;
}

/**
 * Creates the `list_dir` tool: lists a directory inside the sandbox root (see {@link fileTools} for the
 * sandbox rules), one entry per line, sorted by name; directories end with `/` and symbolic links with `@`.
 * With `recursive: true` subdirectories follow their entry (paths relative to the listed directory); symbolic
 * links are never followed. At most `maxEntries` entries (default 500, at most 5000) are read; a cut listing
 * starts with a note.
 */
export function listDirTool(options: FileToolsOptions = {}): Tool<ListDirArgs, string> {
  const config = resolveFileToolsOptions(options);
  return tool<ListDirArgs, string>({
    name: "list_dir",
    description:
      "Lists a directory of the workspace: one entry per line, directories end with / and symbolic links " +
      "with @. The path is relative to the workspace root (default: the root). recursive: true lists " +
      "subdirectories too.",
    parameters: {
      type: "object",
      properties: {
        path: {
          type: "string",
          maxLength: MAX_SANDBOX_PATH_LENGTH,
          description: 'Directory path relative to the workspace root (default ".")',
        },
        recursive: { type: "boolean", description: "Also list the contents of subdirectories" },
        maxEntries: {
          type: "integer",
          minimum: 1,
          maximum: MAX_LIST_ENTRIES,
          description: `Stop after this many entries (default ${DEFAULT_LIST_ENTRIES})`,
        },
      },
      additionalProperties: false,
    },
    idempotent: true,
    execute: async (args, ctx) => {
      try {
        return await list(config, args, ctx.signal);
      } catch (error) {
        throw describeFsError({ error, path: args.path ?? "." });
      }
    },
  });
}
