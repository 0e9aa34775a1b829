import path from "node:path";
import { SandboxError } from "../errors/sandbox-error.js";
import type { ResolvedFileToolsOptions } from "./file-tools-options.js";
import type { SandboxPath } from "./resolve-sandbox-path.js";
import { secretPathReason } from "./secret-paths.js";

/**
 * Refuses (throws {@link SandboxError}) access to a file that likely holds secrets, unless
 * `allowSecretFiles`: checked on the path as given and on the path it resolves to (a symbolic link inside
 * the root to `.env` is refused too).
 */
export function checkSecretPath({
  config,
  target,
  requested,
  tool,
}: {
  config: ResolvedFileToolsOptions;
  target: SandboxPath;
  /** The path as the model gave it. */
  requested: string;
  tool: string;
}): void {
  if (config.allowSecretFiles) return;
  const real = path.relative(target.root, target.real).split(path.sep).join("/");
  const reason = secretPathReason({ path: target.relative }) ?? secretPathReason({ path: real });
  if (reason === undefined) return;
  throw new SandboxError({
    path: requested,
    reason: `it may hold secrets (${reason}); ${tool} refuses such files (allowSecretFiles: true permits them)`,
  });
}

/** The error for a file with more than one hard link. */
export function hardLinkError({
  requested,
  links,
  tool,
  optIn,
}: {
  requested: string;
  links: number;
  tool: string;
  /** How to allow it, if it can be allowed. */
  optIn?: string;
}): SandboxError {
  return new SandboxError({
    path: requested,
    reason:
      `it has ${links} hard links, so it may be the same file as one outside the sandbox root; ${tool} ` +
      `refuses such files${optIn === undefined ? "" : ` (${optIn})`}`,
  });
}
