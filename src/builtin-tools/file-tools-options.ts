import path from "node:path";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";

/** Default of {@link FileToolsOptions.maxReadBytes} and {@link FileToolsOptions.maxWriteBytes}: 1 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/** Options of {@link fileTools} and of each file tool alone (`readFileTool`, `writeFileTool`, `listDirTool`). */
export interface FileToolsOptions {
  /** The sandbox root: every path is relative to it and may not leave it. Default `process.cwd()` (at creation). */
  root?: string;
  /** `read_file` returns at most this many bytes per call (more with `offset`). Default 1 MiB. */
  maxReadBytes?: number;
  /** `write_file` refuses content larger than this many bytes (UTF-8). Default 1 MiB. */
  maxWriteBytes?: number;
  /** When false, {@link fileTools} leaves out `write_file`. Default true. */
  allowWrite?: boolean;
  /** When true, every `write_file` call needs approval (see the agent's approval handling). Default false. */
  needsApprovalForWrite?: boolean;
  /**
   * When true, files that likely hold secrets may be read and written: `.env` and `.env.*` (templates such as
   * `.env.example` always may), credentials files (`.npmrc`, `.netrc`, `.pgpass`, `.git-credentials`, ...),
   * private keys (`id_rsa`, `*.pem`, `*.key`, ..., and any file holding a PEM private key block) and
   * everything inside `.git/`, `.ssh/`, `.aws/`, `.gnupg/`, `.kube/`, `.docker/`. Default false: refused.
   */
  allowSecretFiles?: boolean;
  /**
   * When true, `read_file` reads files with more than one hard link. Default false: refused, because a hard
   * link inside the root may be the same file as one outside it (package managers such as pnpm hard-link
   * `node_modules` files to their store; set this to read those). `write_file` always refuses them.
   */
  allowHardLinkedReads?: boolean;
}

/** {@link FileToolsOptions} with defaults applied and validated. */
export interface ResolvedFileToolsOptions {
  root: string;
  maxReadBytes: number;
  maxWriteBytes: number;
  allowWrite: boolean;
  needsApprovalForWrite: boolean;
  allowSecretFiles: boolean;
  allowHardLinkedReads: boolean;
}

function positiveInteger(argument: string, value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_FILE_BYTES;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new InvalidArgumentError({
      argument,
      message: `expected a positive integer, got ${String(value)}`,
    });
  }
  return value;
}

function flag(argument: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") throw new InvalidArgumentError({ argument, message: "expected a boolean" });
  return value;
}

/**
 * Applies the defaults of {@link FileToolsOptions} and validates them; the root becomes an absolute path
 * (it need not exist yet: each call resolves it). Throws {@link InvalidArgumentError} for invalid options.
 */
export function resolveFileToolsOptions(options: FileToolsOptions = {}): ResolvedFileToolsOptions {
  if (options === null || typeof options !== "object") {
    throw new InvalidArgumentError({ argument: "options", message: "expected an options object" });
  }
  const { root } = options;
  if (root !== undefined && (typeof root !== "string" || root === "" || root.includes("\0"))) {
    throw new InvalidArgumentError({ argument: "root", message: "expected a non-empty path" });
  }
  return {
    root: path.resolve(root ?? process.cwd()),
    maxReadBytes: positiveInteger("maxReadBytes", options.maxReadBytes),
    maxWriteBytes: positiveInteger("maxWriteBytes", options.maxWriteBytes),
    allowWrite: flag("allowWrite", options.allowWrite, true),
    needsApprovalForWrite: flag("needsApprovalForWrite", options.needsApprovalForWrite, false),
    allowSecretFiles: flag("allowSecretFiles", options.allowSecretFiles, false),
    allowHardLinkedReads: flag("allowHardLinkedReads", options.allowHardLinkedReads, false),
  };
}
