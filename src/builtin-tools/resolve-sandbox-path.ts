import type { Stats } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { SandboxError } from "../errors/sandbox-error.js";

/** Longer paths are refused before any file system access. */
export const MAX_SANDBOX_PATH_LENGTH = 4096;

/** A path resolved inside a sandbox root by {@link resolveSandboxPath}. */
export interface SandboxPath {
  /** The normalised path relative to the root, with `/` separators (`"."` for the root itself). */
  relative: string;
  /** The absolute path with every existing symbolic link resolved; always inside {@link SandboxPath.root}. */
  real: string;
  /** The root's real path (symbolic links resolved). */
  root: string;
  /** `lstat` of {@link SandboxPath.real} when it exists, else undefined (a target that does not exist yet). */
  stats: Stats | undefined;
}

/** True when `target` is `root` or inside it. Compares with `path.relative`, so `/root2` is not in `/root`. */
export function isInsideRoot({ root, target }: { root: string; target: string }): boolean {
  const relative = path.relative(root, target);
  if (relative === "") return true;
  if (path.isAbsolute(relative)) return false;
  return relative !== ".." && !relative.startsWith(`..${path.sep}`);
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Checks a model-given path without touching the file system and returns its normalised segments. Refuses
 * (with {@link SandboxError}) NUL bytes, absolute paths in POSIX or Windows form (`/x`, `C:\x`, `C:x`,
 * `\\server\share`), and `..` segments that climb above the root. Backslashes count as separators on every
 * platform, so `a\..\..\x` is caught too (a file name containing `\` cannot be addressed).
 */
export function splitSandboxPath({ path: requested }: { path: string }): string[] {
  const refuse = (reason: string): SandboxError => new SandboxError({ path: requested, reason });
  if (typeof requested !== "string") throw refuse("expected a string");
  if (requested.length > MAX_SANDBOX_PATH_LENGTH) {
    throw refuse(`longer than ${MAX_SANDBOX_PATH_LENGTH} characters`);
  }
  if (requested.includes("\0")) throw refuse("it contains a NUL byte");
  if (path.posix.isAbsolute(requested) || path.win32.isAbsolute(requested) || /^[a-zA-Z]:/.test(requested)) {
    throw refuse("absolute paths are not allowed; give a path relative to the sandbox root");
  }
  const segments: string[] = [];
  for (const segment of requested.replaceAll("\\", "/").split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.pop() === undefined) throw refuse('".." leaves the sandbox root');
      continue;
    }
    // On Windows a ":" names a drive or an alternate data stream.
    if (process.platform === "win32" && segment.includes(":")) throw refuse('":" is not allowed in a name');
    segments.push(segment);
  }
  return segments;
}

/**
 * Resolves a model-given `path` inside `root`, refusing every way out with {@link SandboxError}: the checks of
 * {@link splitSandboxPath}, then a walk from the root's real path that `lstat`s each segment and resolves every
 * symbolic link with `fs.realpath`, refusing links that resolve outside the root (a link inside pointing
 * inside is followed) and dangling links (their target cannot be checked). Segments from the first one that
 * does not exist are appended as they are, so a write target that does not exist yet is resolved against its
 * deepest existing (real) ancestor. Containment is checked with `path.relative`, never with a string prefix.
 *
 * The result is only valid at the time of the check: a concurrent process that swaps a directory for a link
 * afterwards can still redirect an access (see the file tools' notes on `O_NOFOLLOW`).
 */
export async function resolveSandboxPath({
  root,
  path: requested,
}: {
  root: string;
  path: string;
}): Promise<SandboxPath> {
  const segments = splitSandboxPath({ path: requested });
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch (error) {
    throw new Error(`The sandbox root ${JSON.stringify(root)} is not accessible (${errorCode(error)})`, {
      cause: error,
    });
  }
  const relative = segments.length === 0 ? "." : segments.join("/");
  let current = realRoot;
  let stats: Stats | undefined = await lstat(realRoot);
  for (let index = 0; index < segments.length; index++) {
    const next = path.join(current, segments[index] as string);
    try {
      stats = await lstat(next);
    } catch (error) {
      if (errorCode(error) !== "ENOENT") throw error;
      const real = path.join(next, ...segments.slice(index + 1));
      return { relative, real, root: realRoot, stats: undefined };
    }
    if (!stats.isSymbolicLink()) {
      current = next;
      continue;
    }
    const link = JSON.stringify(segments.slice(0, index + 1).join("/"));
    let target: string;
    try {
      target = await realpath(next);
    } catch (error) {
      const code = errorCode(error);
      if (code !== "ENOENT" && code !== "ELOOP") throw error;
      const why = code === "ELOOP" ? "a symbolic link loop" : "a symbolic link whose target does not exist";
      throw new SandboxError({ path: requested, reason: `${link} is ${why}`, cause: error });
    }
    if (!isInsideRoot({ root: realRoot, target })) {
      throw new SandboxError({
        path: requested,
        reason: `${link} is a symbolic link that resolves outside the sandbox root`,
      });
    }
    current = target;
    stats = await lstat(target);
  }
  return { relative, real: current, root: realRoot, stats };
}
