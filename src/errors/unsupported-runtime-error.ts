import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_UNSUPPORTEDRUNTIMEERROR = errorMarker("UnsupportedRuntimeError");

/** Options of {@link UnsupportedRuntimeError}. */
export interface UnsupportedRuntimeErrorOptions {
  /** What needs the missing piece, e.g. `"FileStore"`. */
  feature: string;
  /** The Node.js built-in module the runtime lacks, e.g. `"node:fs/promises"`. */
  module: string;
}

/**
 * A feature that needs one of Node's built-in modules was used in a runtime without them: a `FileStore`,
 * `FileStateStore` or `FileJournal` in a browser, or in Cloudflare Workers without the `nodejs_compat` flag.
 * The root entry loads everywhere; node-only pieces load their built-ins on first use (through
 * `process.getBuiltinModule`: Node 20.16+ and 22.3+, Bun, Deno, workerd with `nodejs_compat`) and throw this
 * where there are none. Use `MemoryStore` or a Redis / PostgreSQL store there instead.
 */
export class UnsupportedRuntimeError extends AgentloopError {
  protected readonly [MARK_UNSUPPORTEDRUNTIMEERROR] = true;
  /** What needs the missing piece, e.g. `"FileStore"`. */
  readonly feature: string;
  /** The Node.js built-in module the runtime lacks, e.g. `"node:fs/promises"`. */
  readonly module: string;

  constructor({ feature, module }: UnsupportedRuntimeErrorOptions) {
    super({
      message: `${feature} needs Node's ${module}, which this runtime does not have (use MemoryStore or a Redis / PostgreSQL store here)`,
    });
    this.name = "UnsupportedRuntimeError";
    this.feature = feature;
    this.module = module;
  }

  static override isInstance(error: unknown): error is UnsupportedRuntimeError {
    return hasMarker(error, MARK_UNSUPPORTEDRUNTIMEERROR);
  }
}
