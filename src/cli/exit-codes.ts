/** The exit codes of the `agentloop` command (defined beside {@link CliError}, which carries one). */
export { EXIT_CODES, type ExitCode } from "../errors/cli-exit-codes.js";
