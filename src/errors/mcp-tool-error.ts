import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_MCPTOOLERROR = errorMarker("McpToolError");

/** Options of {@link McpToolError}. */
export interface McpToolErrorOptions {
  /** The tool's name on the MCP server (without the agentloop prefix). */
  toolName: string;
  /** The label of the server (see `McpToolsOptions.server`). */
  server: string;
  /** What went wrong, in the server's words when it said something. */
  message: string;
  /** The JSON-RPC error code, for protocol errors (absent for `isError: true` results). */
  code?: number;
  cause?: unknown;
}

/**
 * An MCP tool call failed: the server answered with `isError: true` (its text is in the message), answered with
 * a JSON-RPC error, or the request timed out. Thrown from an MCP tool's `execute`, so the tool executor feeds
 * the message back to the model like any other tool error.
 */
export class McpToolError extends AgentloopError {
  protected readonly [MARK_MCPTOOLERROR] = true;
  /** The tool's name on the MCP server (without the agentloop prefix). */
  readonly toolName: string;
  /** The label of the server. */
  readonly server: string;
  /** The JSON-RPC error code, for protocol errors; undefined for `isError: true` results. */
  readonly code: number | undefined;

  constructor({ toolName, server, message, code, cause }: McpToolErrorOptions) {
    super({ message: `MCP tool "${toolName}" on server "${server}" failed: ${message}`, cause });
    this.name = "McpToolError";
    this.toolName = toolName;
    this.server = server;
    this.code = code;
  }

  static override isInstance(error: unknown): error is McpToolError {
    return hasMarker(error, MARK_MCPTOOLERROR);
  }
}
