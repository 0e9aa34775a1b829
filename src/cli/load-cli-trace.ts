import { resolve } from "node:path";
import { CliError } from "../errors/cli-error.js";
import { TraceError } from "../errors/trace-error.js";
import { loadTrace } from "../trace/trace-file.js";
import type { Trace } from "../trace/trace-types.js";

/** Options of {@link loadCliTrace}. */
export interface LoadCliTraceOptions {
  /** The path as given on the command line. */
  file: string;
  /** Relative paths are resolved against it. */
  cwd: string;
}

/**
 * Loads a trace file for a command: a file that cannot be read is a usage error (exit code 2), a file that is
 * not a trace a failure (exit code 1), both with one clear message.
 */
export async function loadCliTrace({ file, cwd }: LoadCliTraceOptions): Promise<Trace> {
  try {
    return await loadTrace(resolve(cwd, file));
  } catch (error) {
    if (TraceError.isInstance(error)) throw new CliError({ message: error.message, cause: error });
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "ENOENT") throw CliError.usage(`cannot read ${file}: no such file`);
    if (code === "EISDIR") throw CliError.usage(`cannot read ${file}: it is a directory`);
    throw CliError.usage(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
