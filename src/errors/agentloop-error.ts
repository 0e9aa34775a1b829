const MARKER = Symbol.for("agentloop.error");

/**
 * Returns the global marker symbol of an error class. Each class sets its marker as an instance field, so an
 * instance carries the markers of its whole class chain and `isInstance` guards work across package copies.
 */
export function errorMarker(name: string): symbol {
  return Symbol.for(`agentloop.error.${name}`);
}

/** True when `error` is an object carrying `marker`. */
export function hasMarker(error: unknown, marker: symbol): boolean {
  return typeof error === "object" && error !== null && marker in error;
}

/** Options accepted by every agentloop error. */
export interface AgentloopErrorOptions {
  /** Human-readable message. */
  message: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * Base class of every error agentloop throws or reports.
 *
 * Use the static `isInstance` guards rather than `instanceof`: they work across duplicated copies of the
 * package (two versions in one `node_modules`), because they check a global symbol marker and the name.
 */
export class AgentloopError extends Error {
  protected readonly [MARKER] = true;

  constructor({ message, cause }: AgentloopErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "AgentloopError";
  }

  /** True for any agentloop error, from any copy of the package. */
  static isInstance(error: unknown): error is AgentloopError {
    return hasMarker(error, MARKER);
  }
}
