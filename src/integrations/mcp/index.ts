/**
 * `agentloop/mcp`: the tools of Model Context Protocol servers (stdio or Streamable HTTP) as agentloop tools.
 * Needs the optional peer dependency `@modelcontextprotocol/sdk`, which is loaded on first use.
 */

export { McpConnectionError } from "../../errors/mcp-connection-error.js";
export { McpToolError, type McpToolErrorOptions } from "../../errors/mcp-tool-error.js";
export {
  base64ByteLength,
  formatMcpResult,
  type McpCallResult,
  type McpContentBlock,
  mcpResultContent,
} from "./format-mcp-result.js";
export { DEFAULT_MCP_TIMEOUT_MS } from "./mcp-connection.js";
export type {
  McpCommonOptions,
  McpHttpOptions,
  McpServerInfo,
  McpStdioOptions,
  McpToolsOptions,
} from "./mcp-options.js";
export { McpRegistry, type McpRegistryCallOptions, type McpToolDescription } from "./mcp-registry.js";
export { mcpToolName } from "./mcp-tool-name.js";
export { type McpToolSet, mcpTools } from "./mcp-tools.js";
