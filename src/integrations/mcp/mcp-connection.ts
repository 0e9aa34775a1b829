import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Tool as McpToolInfo } from "@modelcontextprotocol/sdk/types.js";
import { AbortError } from "../../errors/abort-error.js";
import { McpConnectionError } from "../../errors/mcp-connection-error.js";
import { McpToolError } from "../../errors/mcp-tool-error.js";
import { createMcpTransport, type McpTransport } from "./create-mcp-transport.js";
import { describeError } from "./describe-error.js";
import { type McpCallResult, toMcpCallResult } from "./format-mcp-result.js";
import { loadMcpModule } from "./load-mcp-sdk.js";
import type { McpServerInfo, McpToolsOptions } from "./mcp-options.js";

export type { Tool as McpToolInfo } from "@modelcontextprotocol/sdk/types.js";

/** Connecting, listing tools and `McpRegistry.call` time out after this many ms unless told otherwise. */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
/** Timeouts longer than this overflow `setTimeout`: it stands for "no timeout". */
export const NO_MCP_TIMEOUT = 2_147_483_647;
/** How long a liveness ping (after a transport error of an HTTP connection) may take. */
const PING_TIMEOUT_MS = 3_000;
/** How long closing waits for an HTTP server to end the session. */
const TERMINATE_TIMEOUT_MS = 1_000;
/** The client version sent to servers. */
const CLIENT_VERSION = "0.1.0";
/** JSON-RPC codes the SDK uses for its own failures. */
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

type ErrorClass = abstract new (...args: never[]) => Error;

/** Options of {@link McpConnection.callTool}. */
export interface McpCallOptions {
  /** The tool's name on the server. */
  name: string;
  /** Its arguments. */
  args: Record<string, unknown>;
  /** Cancels the request (the server is sent `notifications/cancelled`); the call rejects with AbortError. */
  signal?: AbortSignal | undefined;
  /** The MCP request timeout, in ms. */
  timeoutMs: number;
}

function withTimeout(promise: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([promise.catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

/**
 * One live connection to an MCP server (stdio process or Streamable HTTP endpoint), built on the SDK's
 * `Client`. It turns the ways a server can go away into an {@link McpConnectionError}: when the process
 * exits or the transport closes, calls in flight reject at once and later calls fail at once. Over HTTP a
 * dead server does not close anything, so every transport error triggers a short ping, and a ping that
 * fails for another reason than a timeout ends the connection the same way.
 */
export class McpConnection {
  private label: string;
  private readonly client: Client;
  private readonly transport: McpTransport;
  private readonly mcpErrorClass: ErrorClass;
  private readonly pending = new Set<(error: Error) => void>();
  private failure: McpConnectionError | undefined;
  private closeRequested = false;
  /** Set once the handshake succeeded (transport errors before it are the handshake's failure). */
  private connected = false;
  private closing: Promise<void> | undefined;
  private liveness: Promise<void> | undefined;
  private info: McpServerInfo = { name: "", version: "" };

  private constructor(options: {
    label: string;
    client: Client;
    transport: McpTransport;
    mcpError: ErrorClass;
  }) {
    this.label = options.label;
    this.client = options.client;
    this.transport = options.transport;
    this.mcpErrorClass = options.mcpError;
    this.client.onclose = () => this.onClose();
    this.client.onerror = (error) => this.onError(error);
  }

  /**
   * Starts the transport and runs the MCP handshake. Rejects with {@link McpConnectionError} when the server
   * cannot be started or reached, or does not complete the handshake within the timeout (the process is
   * stopped then). Options are expected to be validated.
   */
  static async open(options: McpToolsOptions): Promise<McpConnection> {
    const [{ Client }, { McpError }] = await Promise.all([
      loadMcpModule({ load: () => import("@modelcontextprotocol/sdk/client/index.js") }),
      loadMcpModule({ load: () => import("@modelcontextprotocol/sdk/types.js") }),
    ]);
    const transport = await createMcpTransport({ options });
    const client = new Client({ name: options.name ?? "agentloop", version: CLIENT_VERSION });
    const connection = new McpConnection({ label: transport.label, client, transport, mcpError: McpError });
    await connection.connect(Math.min(options.connectTimeoutMs ?? DEFAULT_MCP_TIMEOUT_MS, NO_MCP_TIMEOUT));
    if (options.server !== undefined) connection.label = options.server;
    else if (connection.info.name !== "") connection.label = connection.info.name;
    return connection;
  }

  /** How errors name the server. */
  get server(): string {
    return this.label;
  }

  /** What the server reported about itself. */
  get serverInfo(): McpServerInfo {
    return this.info;
  }

  /** The process id of a stdio server (undefined for HTTP, and once the process has exited). */
  get pid(): number | undefined {
    return this.transport.pid();
  }

  /** True once the connection has ended (closed by either side or failed); every call then fails at once. */
  get closed(): boolean {
    return this.failure !== undefined;
  }

  private async connect(timeoutMs: number): Promise<void> {
    try {
      await this.client.connect(this.transport.transport as Transport, { timeout: timeoutMs });
    } catch (error) {
      const reason = this.connectFailure(error, timeoutMs);
      this.closeRequested = true;
      await this.client.close().catch(() => undefined);
      throw new McpConnectionError({
        server: this.label,
        message: `Could not connect to MCP server ${this.label}: ${reason}${this.transport.stderrTail()}`,
        cause: error,
      });
    }
    this.connected = true;
    const version = this.client.getServerVersion();
    const instructions = this.client.getInstructions();
    this.info = {
      name: version?.name ?? "",
      version: version?.version ?? "",
      ...(version?.title !== undefined && { title: version.title }),
      ...(instructions !== undefined && { instructions }),
    };
  }

  /** Why the handshake failed, in words. */
  private connectFailure(error: unknown, timeoutMs: number): string {
    const code = error instanceof this.mcpErrorClass ? (error as Error & { code: number }).code : undefined;
    if (code === REQUEST_TIMEOUT) return `no answer to the handshake within ${timeoutMs} ms`;
    if (this.transport.kind === "stdio" && (this.failure !== undefined || code === CONNECTION_CLOSED)) {
      return "the server process exited";
    }
    return describeError(error);
  }

  /** Every tool the server offers, following `nextCursor` through all pages. */
  async listTools({ timeoutMs }: { timeoutMs: number }): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const params = cursor === undefined ? undefined : { cursor };
      const page = await this.track("tools/list", undefined, () =>
        this.client.listTools(params, { timeout: timeoutMs }),
      ).catch((error: unknown) => {
        if (!McpToolError.isInstance(error)) throw error;
        const reason = describeError(error.cause ?? error);
        const message = `Could not list the tools of MCP server ${this.label}: ${reason}`;
        throw new McpConnectionError({ server: this.label, message, cause: error });
      });
      tools.push(...page.tools);
      cursor = page.nextCursor;
      if (cursor !== undefined) {
        if (seen.has(cursor)) break; // a server repeating a cursor would loop forever
        seen.add(cursor);
      }
    } while (cursor !== undefined);
    return tools;
  }

  /**
   * Calls a tool and resolves with the raw result (`isError` results included). Rejects with
   * {@link McpConnectionError} when the connection is or goes down, `AbortError` when `signal` aborts, and
   * {@link McpToolError} for protocol errors and timeouts.
   */
  callTool({ name, args, signal, timeoutMs }: McpCallOptions): Promise<McpCallResult> {
    if (signal?.aborted) return Promise.reject(new AbortError({ cause: signal.reason }));
    return this.track(name, signal, () =>
      this.client
        .callTool({ name, arguments: args }, undefined, {
          timeout: timeoutMs,
          ...(signal !== undefined && { signal }),
        })
        .then(toMcpCallResult),
    );
  }

  /**
   * Ends the connection: ends an HTTP session (best effort, at most 1 s), stops a stdio server (stdin closed,
   * then SIGTERM, then SIGKILL, as the SDK does). Calls in flight reject with {@link McpConnectionError}.
   * Idempotent.
   */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.closeRequested = true;
    if (this.failure === undefined) {
      const terminate = this.transport.terminateSession();
      if (terminate !== undefined) await withTimeout(terminate, TERMINATE_TIMEOUT_MS);
    }
    await this.client.close().catch(() => undefined);
    this.fail("closed by the client");
  }

  /** Runs one request, rejecting it as soon as the connection fails, and maps its errors. */
  private track<T>(toolName: string, signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise<T>((resolve, reject) => {
      const abandon = (error: Error): void => {
        this.pending.delete(abandon);
        reject(error);
      };
      this.pending.add(abandon);
      run().then(
        (value) => {
          this.pending.delete(abandon);
          resolve(value);
        },
        async (error: unknown) => {
          if (!this.pending.has(abandon)) return;
          const mapped = await this.mapError({ error, toolName, signal });
          abandon(mapped);
        },
      );
    });
  }

  private async mapError(options: {
    error: unknown;
    toolName: string;
    signal: AbortSignal | undefined;
  }): Promise<Error> {
    const { error, toolName, signal } = options;
    if (this.failure !== undefined) return this.failure;
    if (signal?.aborted) return new AbortError({ cause: signal.reason });
    if (error instanceof this.mcpErrorClass) {
      const code = (error as Error & { code: number }).code;
      if (code === CONNECTION_CLOSED && /connection closed/i.test(error.message)) {
        this.fail("the connection closed");
        return this.failure ?? error;
      }
      const message = code === REQUEST_TIMEOUT ? `the request timed out (${error.message})` : error.message;
      return new McpToolError({ toolName, server: this.label, message, code, cause: error });
    }
    // Not an answer of the server: the transport failed. Find out whether the server is still there.
    if (this.transport.kind === "http") await this.checkLiveness();
    if (this.failure !== undefined) return this.failure;
    return new McpToolError({ toolName, server: this.label, message: describeError(error), cause: error });
  }

  private onClose(): void {
    this.fail(this.closeRequested ? "closed by the client" : this.transport.closedReason());
  }

  private onError(_error: Error): void {
    // A stdio server that dies also closes its pipes (onClose follows); an HTTP one only errors.
    if (
      this.connected &&
      this.failure === undefined &&
      !this.closeRequested &&
      this.transport.kind === "http"
    ) {
      void this.checkLiveness();
    }
  }

  /** Pings the server; a failure other than a timeout (which may be a busy server) ends the connection. */
  private checkLiveness(): Promise<void> {
    this.liveness ??= this.client
      .ping({ timeout: PING_TIMEOUT_MS })
      .then(
        () => undefined,
        (error: unknown) => {
          if (error instanceof this.mcpErrorClass) return;
          this.fail(`the server stopped answering: ${describeError(error)}`, error);
          void this.client.close().catch(() => undefined);
        },
      )
      .finally(() => {
        this.liveness = undefined;
      });
    return this.liveness;
  }

  /** Ends the connection for good (first reason wins) and rejects every call in flight. */
  private fail(reason: string, cause?: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = McpConnectionError.closed({ server: this.label, reason, cause });
    for (const abandon of [...this.pending]) abandon(this.failure);
  }
}
