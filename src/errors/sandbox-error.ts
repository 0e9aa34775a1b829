import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_SANDBOXERROR = errorMarker("SandboxError");

/**
 * A file tool refused a path because it could leave the sandbox root: an absolute path, `..` segments that
 * climb above the root, a NUL byte, a symbolic link (the file itself or a parent directory) that resolves
 * outside the root or cannot be resolved. `path` is the path as the model wrote it; the message names it and
 * says why.
 */
export class SandboxError extends AgentloopError {
  protected readonly [MARK_SANDBOXERROR] = true;
  /** The refused path, as given. */
  readonly path: string;

  constructor({ path, reason, cause }: { path: string; reason: string; cause?: unknown }) {
    super({ message: `Path ${JSON.stringify(path)} is not allowed in the sandbox: ${reason}`, cause });
    this.name = "SandboxError";
    this.path = path;
  }

  static override isInstance(error: unknown): error is SandboxError {
    return hasMarker(error, MARK_SANDBOXERROR);
  }
}
