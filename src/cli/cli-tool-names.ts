/** The built-in tools `agentloop run --tools` accepts, in the order the help lists them. */
export const CLI_TOOL_NAMES = Object.freeze([
  "calculator",
  "current_time",
  "read_file",
  "write_file",
  "list_dir",
  "http_get",
  "ask_user",
] as const);

/** A name in {@link CLI_TOOL_NAMES}. */
export type CliToolName = (typeof CLI_TOOL_NAMES)[number];

/** The tools of `agentloop run` without `--tools`. */
export const DEFAULT_CLI_TOOLS: readonly CliToolName[] = Object.freeze(["calculator", "current_time"]);

/** Whether `name` is a built-in tool of the CLI. */
export function isCliToolName(name: string): name is CliToolName {
  return (CLI_TOOL_NAMES as readonly string[]).includes(name);
}
