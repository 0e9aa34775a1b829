import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";
import { EXIT_CODES, type ExitCode } from "./cli-exit-codes.js";

const MARK_CLIERROR = errorMarker("CliError");

/** Options of {@link CliError}. */
export interface CliErrorOptions {
  /** One line, without the `agentloop: error:` prefix. */
  message: string;
  /** The exit code. Default {@link EXIT_CODES.failed}. */
  exitCode?: ExitCode;
  cause?: unknown;
}

/**
 * An error the CLI reports as one line on stderr (`agentloop: error: <message>`) before exiting with
 * `exitCode`. Anything else thrown by a command is reported the same way with exit code 1.
 */
export class CliError extends AgentloopError {
  protected readonly [MARK_CLIERROR] = true;
  /** The exit code the CLI ends with. */
  readonly exitCode: ExitCode;

  constructor({ message, exitCode = EXIT_CODES.failed, cause }: CliErrorOptions) {
    super({ message, cause });
    this.name = "CliError";
    this.exitCode = exitCode;
  }

  static override isInstance(error: unknown): error is CliError {
    return hasMarker(error, MARK_CLIERROR);
  }

  /** A usage error (exit code 2): the message should say what is wrong and what to do. */
  static usage(message: string): CliError {
    return new CliError({ message, exitCode: EXIT_CODES.usage });
  }

  /** A configuration error (exit code 3), e.g. a missing API key. */
  static config(message: string): CliError {
    return new CliError({ message, exitCode: EXIT_CODES.config });
  }
}
