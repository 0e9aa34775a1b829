/** The exit codes of the `agentloop` command (also listed in `agentloop --help`). */
export const EXIT_CODES = Object.freeze({
  /** The command succeeded: the run completed, the replay did not diverge, the trace verified. */
  ok: 0,
  /** The run ended with an error or a limit, the replay diverged, or the trace is broken. */
  failed: 1,
  /** Invalid command line: unknown command or option, a missing or invalid argument. */
  usage: 2,
  /** Invalid configuration: a missing API key, an invalid base URL. */
  config: 3,
  /** The run was aborted with Ctrl-C (128 + SIGINT). */
  aborted: 130,
});

/** One of {@link EXIT_CODES}. */
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];
