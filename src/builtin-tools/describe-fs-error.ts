import { SandboxError } from "../errors/sandbox-error.js";

const MESSAGES: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  ENOTDIR: "a parent of it is not a directory",
  EISDIR: "it is a directory",
  EEXIST: "it already exists",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOTEMPTY: "the directory is not empty",
  ENAMETOOLONG: "a name is too long",
  ENOSPC: "no space left on the device",
  EROFS: "the file system is read-only",
  EBUSY: "the file is busy",
  EMFILE: "too many open files",
};

/**
 * Turns a Node file system error into an error for the model that names the path as the model wrote it (not
 * the absolute path on this machine). `ELOOP` (an `O_NOFOLLOW` open that met a symbolic link, i.e. the path
 * was swapped for a link after it was checked) becomes a {@link SandboxError}. Other values are returned as
 * they are. Returns the error to throw.
 */
export function describeFsError({ error, path }: { error: unknown; path: string }): unknown {
  if (SandboxError.isInstance(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ELOOP") {
    return new SandboxError({
      path,
      reason: "it is a symbolic link (it changed after it was checked)",
      cause: error,
    });
  }
  if (typeof code !== "string") return error;
  const text = MESSAGES[code];
  if (text === undefined) return error;
  return new Error(`${code}: ${JSON.stringify(path)}: ${text}`, { cause: error });
}
