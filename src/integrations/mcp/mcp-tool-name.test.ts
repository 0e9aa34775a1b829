import { describe, expect, it } from "vitest";
import { McpConnectionError } from "../../errors/mcp-connection-error.js";
import { McpToolError } from "../../errors/mcp-tool-error.js";
import { MAX_TOOL_NAME_LENGTH, mcpToolName } from "./mcp-tool-name.js";

describe("mcpToolName", () => {
  it("prefixes and sanitises to ^[a-zA-Z0-9_-]{1,64}$", () => {
    expect(mcpToolName({ prefix: "everything_", name: "get-sum" })).toBe("everything_get-sum");
    expect(mcpToolName({ name: "read file" })).toBe("read_file");
    expect(mcpToolName({ prefix: "fs.", name: "list/dir:é😀" })).toBe("fs_list_dir___");
    expect(mcpToolName({ name: "" })).toBe("_");
    const long = mcpToolName({ prefix: "p_", name: "x".repeat(100) });
    expect(long).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(long).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });
});

describe("MCP errors", () => {
  it("carry their fields and markers", () => {
    const toolError = new McpToolError({ toolName: "echo", server: "s", message: "boom", code: -32602 });
    expect(toolError.message).toBe('MCP tool "echo" on server "s" failed: boom');
    expect(McpToolError.isInstance(toolError)).toBe(true);
    expect(McpConnectionError.isInstance(toolError)).toBe(false);
    const closed = McpConnectionError.closed({ server: "s", reason: "the server process exited" });
    expect(closed.message).toBe("MCP server s closed: the server process exited");
    expect(closed).toMatchObject({ name: "McpConnectionError", server: "s" });
    expect(McpConnectionError.isInstance(closed)).toBe(true);
  });
});
