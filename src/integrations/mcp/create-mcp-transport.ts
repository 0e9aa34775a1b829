import { basename } from "node:path";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { loadMcpModule } from "./load-mcp-sdk.js";
import type { McpHttpOptions, McpStdioOptions, McpToolsOptions } from "./mcp-options.js";

/** How much of a stdio server's stderr is kept for error messages. */
const STDERR_KEPT_CHARS = 4_000;
/** How much of it an error message quotes. */
const STDERR_QUOTED_CHARS = 600;
/** The longest label made from a command line. */
const MAX_LABEL_CHARS = 60;

/** An SDK transport plus what {@link McpConnection} needs to know about it. */
export interface McpTransport {
  readonly kind: "stdio" | "http";
  /** The SDK transport (not started). */
  readonly transport: Transport;
  /** A name for the server until it tells its own: the command line or the URL's host. */
  readonly label: string;
  /** The stdio server's process id, while it runs. */
  pid(): number | undefined;
  /** `" (stderr: …)"` with the end of a stdio server's stderr, or "" when there is none. */
  stderrTail(): string;
  /** Why the transport closed when the client did not close it. */
  closedReason(): string;
  /** Ends an HTTP session (a promise), or undefined when there is nothing to end. */
  terminateSession(): Promise<void> | undefined;
}

/** `node index.js`, `npx server-everything`: the command and its first non-option argument, base names only. */
function commandLabel({ command, args = [] }: McpStdioOptions): string {
  const script = args.find((arg) => !arg.startsWith("-"));
  const label = [command, ...(script === undefined ? [] : [script])].map((part) => basename(part)).join(" ");
  return label.length > MAX_LABEL_CHARS ? `${label.slice(0, MAX_LABEL_CHARS - 1)}…` : label;
}

async function stdioTransport(options: McpStdioOptions): Promise<McpTransport> {
  const { StdioClientTransport } = await loadMcpModule({
    load: () => import("@modelcontextprotocol/sdk/client/stdio.js"),
  });
  const mode = options.stderr ?? "pipe";
  const transport = new StdioClientTransport({
    command: options.command,
    args: [...(options.args ?? [])],
    stderr: mode,
    ...(options.env !== undefined && { env: options.env }),
    ...(options.cwd !== undefined && { cwd: options.cwd }),
  });
  let stderr = "";
  // A piped stderr must be read, or a chatty server blocks once the pipe is full.
  transport.stderr?.on("data", (chunk: Buffer | string) => {
    const text = String(chunk);
    stderr = (stderr + text).slice(-STDERR_KEPT_CHARS);
    options.onStderr?.(text);
  });
  const stderrTail = (): string => {
    const tail = stderr.trim().slice(-STDERR_QUOTED_CHARS);
    return tail === "" ? "" : ` (stderr: ${tail})`;
  };
  return {
    kind: "stdio",
    transport,
    label: commandLabel(options),
    pid: () => transport.pid ?? undefined,
    stderrTail,
    closedReason: () => `the server process exited${stderrTail()}`,
    terminateSession: () => undefined,
  };
}

async function httpTransport(options: McpHttpOptions): Promise<McpTransport> {
  const { StreamableHTTPClientTransport } = await loadMcpModule({
    load: () => import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
  });
  const url = new URL(options.url);
  const transport = new StreamableHTTPClientTransport(url, {
    ...(options.headers !== undefined && { requestInit: { headers: { ...options.headers } } }),
  });
  return {
    kind: "http",
    transport,
    label: url.host,
    pid: () => undefined,
    stderrTail: () => "",
    closedReason: () => "the connection closed",
    terminateSession: () => (transport.sessionId === undefined ? undefined : transport.terminateSession()),
  };
}

/** Creates (does not start) the SDK transport that `options` describe: stdio for `command`, HTTP for `url`. */
export function createMcpTransport({ options }: { options: McpToolsOptions }): Promise<McpTransport> {
  return options.command !== undefined
    ? stdioTransport(options as McpStdioOptions)
    : httpTransport(options as McpHttpOptions);
}
