/** The longest tool name providers accept. */
export const MAX_TOOL_NAME_LENGTH = 64;

/**
 * The agentloop name of an MCP tool: `prefix + name`, sanitised to the provider rule `^[a-zA-Z0-9_-]{1,64}$`
 * (every other character becomes `_`, the result is cut to 64 characters; an empty result becomes `_`).
 * Two different tools can map to one name: callers check for clashes.
 *
 * @example
 * mcpToolName({ prefix: "everything_", name: "get-sum" }); // "everything_get-sum"
 * mcpToolName({ prefix: "fs.", name: "read file" }); // "fs_read_file"
 */
export function mcpToolName({ prefix = "", name }: { prefix?: string; name: string }): string {
  const sanitised = `${prefix}${name}`.replace(/[^a-zA-Z0-9_-]/gu, "_").slice(0, MAX_TOOL_NAME_LENGTH);
  return sanitised === "" ? "_" : sanitised;
}
