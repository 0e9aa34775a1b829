import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_MCPCONNECTIONERROR = errorMarker("McpConnectionError");

/**
 * The connection to an MCP server failed or is gone: the server could not be started or reached, its process
 * exited, its HTTP endpoint stopped answering, or the connection was closed. Calls pending at that moment
 * reject with it at once, and so does every later call: a closed connection is never reopened (connect again).
 */
export class McpConnectionError extends AgentloopError {
  protected readonly [MARK_MCPCONNECTIONERROR] = true;
  /** The label of the server. */
  readonly server: string;

  constructor({ server, message, cause }: { server: string; message: string; cause?: unknown }) {
    super({ message, cause });
    this.name = "McpConnectionError";
    this.server = server;
  }

  /** The error of a connection that ended: "MCP server <server> closed: <reason>". */
  static closed({
    server,
    reason,
    cause,
  }: {
    server: string;
    reason: string;
    cause?: unknown;
  }): McpConnectionError {
    return new McpConnectionError({ server, message: `MCP server ${server} closed: ${reason}`, cause });
  }

  static override isInstance(error: unknown): error is McpConnectionError {
    return hasMarker(error, MARK_MCPCONNECTIONERROR);
  }
}
