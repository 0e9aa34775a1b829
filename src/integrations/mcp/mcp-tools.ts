import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { McpToolError } from "../../errors/mcp-tool-error.js";
import type { JsonSchema } from "../../models/model.js";
import { type JsonSchemaToolOptions, type Tool, tool } from "../../tools/tool.js";
import { type ToolContent, toolContent } from "../../tools/tool-content.js";
import { formatMcpResult, type McpCallResult, mcpResultContent } from "./format-mcp-result.js";
import { DEFAULT_MCP_TIMEOUT_MS, McpConnection, type McpToolInfo, NO_MCP_TIMEOUT } from "./mcp-connection.js";
import type { McpServerInfo, McpToolsOptions } from "./mcp-options.js";
import { mcpToolName } from "./mcp-tool-name.js";
import { validateMcpOptions } from "./validate-mcp-options.js";

/** The tools of one connected MCP server (see {@link mcpTools}). */
export interface McpToolSet {
  /** One agentloop tool per server tool (after `include`/`exclude`), in the server's order. */
  readonly tools: Tool[];
  /** What the server said about itself when connecting. */
  readonly serverInfo: McpServerInfo;
  /** How errors name the server (`options.server`, else the name the server reports). */
  readonly server: string;
  /** The process id of a stdio server while it runs; undefined for HTTP. */
  readonly pid: number | undefined;
  /** True once the connection has ended: every call then fails at once with `McpConnectionError`. */
  readonly closed: boolean;
  /** Closes the connection (stops a stdio server, ends an HTTP session). Idempotent. */
  close(): Promise<void>;
}

/** Where an agentloop tool made by {@link mcpTools} sends its calls. */
export interface McpToolBinding {
  readonly connection: McpConnection;
  /** The tool's name on the server. */
  readonly mcpName: string;
  /** `options.timeoutMs`, if set. */
  readonly timeoutMs: number | undefined;
}

const bindings = new WeakMap<Tool, McpToolBinding>();

/** The connection behind a tool made by {@link mcpTools}, or undefined for other tools. */
export function mcpToolBinding(candidate: Tool): McpToolBinding | undefined {
  return bindings.get(candidate);
}

/** Options of {@link callMcpTool}. */
export interface CallMcpToolOptions {
  binding: McpToolBinding;
  args: Record<string, unknown>;
  signal?: AbortSignal | undefined;
  /** The MCP request timeout in ms (`Infinity` for none). */
  timeoutMs: number;
}

/**
 * Calls an MCP tool and resolves with its result (see {@link formatMcpResult} for its text,
 * {@link mcpResultContent} for what a model is sent). Rejects with {@link McpToolError} for an
 * `isError: true` result (its text is the message), a protocol error or a timeout; with
 * `McpConnectionError` when the server is gone; with `AbortError` when `signal` aborts.
 */
export async function callMcpTool({
  binding,
  args,
  signal,
  timeoutMs,
}: CallMcpToolOptions): Promise<McpCallResult> {
  const { connection, mcpName } = binding;
  const result = await connection.callTool({
    name: mcpName,
    args,
    signal,
    timeoutMs: Math.min(timeoutMs, NO_MCP_TIMEOUT),
  });
  if (result.isError === true) {
    const message = formatMcpResult({ result });
    throw new McpToolError({ toolName: mcpName, server: connection.server, message });
  }
  return result;
}

/** What an agentloop tool made by {@link mcpTools} returns: text, or `toolContent` with images and files. */
function toolResultOf(result: McpCallResult): string | ToolContent {
  const content = mcpResultContent({ result });
  return typeof content === "string" ? content : toolContent(content);
}

/** The server's input schema as agentloop parameters: a copy with top-level `type: "object"` and `properties`. */
function toolParameters({ info, server }: { info: McpToolInfo; server: string }): JsonSchema {
  const schema: JsonSchema = { ...(info.inputSchema as JsonSchema | undefined) };
  schema.type ??= "object";
  if (schema.type !== "object") {
    throw new InvalidArgumentError({
      argument: "inputSchema",
      message:
        `MCP tool "${info.name}" of server "${server}" has an input schema of type ` +
        `${JSON.stringify(schema.type)}, not "object"; leave it out with \`exclude\``,
    });
  }
  schema.properties ??= {};
  return schema;
}

/**
 * `tool(options)`, with a schema the validator cannot check (an unresolvable `$ref`, an invalid `pattern`)
 * reported as the server's problem, with the way out.
 */
function toolOf(
  info: McpToolInfo,
  server: string,
  options: JsonSchemaToolOptions<string | ToolContent>,
): Tool {
  try {
    return tool(options);
  } catch (error) {
    if (!InvalidArgumentError.isInstance(error) || error.argument !== "parameters") throw error;
    throw new InvalidArgumentError({
      argument: "inputSchema",
      message:
        `MCP tool "${info.name}" of server "${server}" has an input schema agentloop cannot check ` +
        `(${error.message}); leave it out with \`exclude\``,
      cause: error,
    });
  }
}

function selectTools(infos: readonly McpToolInfo[], options: McpToolsOptions, server: string): McpToolInfo[] {
  const { include, exclude } = options;
  if (include !== undefined) {
    const known = new Set(infos.map((info) => info.name));
    const unknown = include.filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new InvalidArgumentError({
        argument: "include",
        message:
          `server "${server}" has no tool named ${unknown.map((name) => JSON.stringify(name)).join(", ")}; ` +
          `it offers: ${[...known].join(", ")}`,
      });
    }
  }
  const included = include === undefined ? undefined : new Set(include);
  const excluded = new Set(exclude ?? []);
  return infos.filter(
    (info) => (included === undefined || included.has(info.name)) && !excluded.has(info.name),
  );
}

/** Which of the server's tools need approval (`needsApproval`); names the server does not list are refused. */
function gatedTools(args: {
  infos: readonly McpToolInfo[];
  options: McpToolsOptions;
  server: string;
}): (name: string) => boolean {
  const { needsApproval } = args.options;
  if (needsApproval === undefined || typeof needsApproval === "boolean") return () => needsApproval === true;
  const listed = new Set(args.infos.map((info) => info.name));
  const unknown = needsApproval.filter((name) => !listed.has(name));
  if (unknown.length > 0) {
    throw new InvalidArgumentError({
      argument: "needsApproval",
      message: `server "${args.server}" lists no tool named ${unknown.map((n) => JSON.stringify(n)).join(", ")}`,
    });
  }
  const names = new Set(needsApproval);
  return (name) => names.has(name);
}

function createTools(
  connection: McpConnection,
  infos: readonly McpToolInfo[],
  options: McpToolsOptions,
): Tool[] {
  const server = connection.server;
  const byName = new Map<string, string>();
  const gated = gatedTools({ infos, options, server });
  return selectTools(infos, options, server).map((info) => {
    const name = mcpToolName({ prefix: options.prefix ?? "", name: info.name });
    const clash = byName.get(name);
    if (clash !== undefined) {
      throw new InvalidArgumentError({
        argument: "prefix",
        message:
          `MCP tools "${clash}" and "${info.name}" of server "${server}" both become "${name}"; ` +
          "leave one out with `exclude`",
      });
    }
    byName.set(name, info.name);
    const binding: McpToolBinding = { connection, mcpName: info.name, timeoutMs: options.timeoutMs };
    const created = toolOf(info, server, {
      name,
      description: info.description ?? info.title ?? "",
      parameters: toolParameters({ info, server }),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      needsApproval: gated(info.name),
      execute: async (args, ctx) => {
        const result = await callMcpTool({
          binding,
          args,
          signal: ctx.signal,
          // Without a timeout of its own the tool runs under the executor's, which aborts ctx.signal.
          timeoutMs: options.timeoutMs ?? Number.POSITIVE_INFINITY,
        });
        return toolResultOf(result);
      },
    });
    bindings.set(created, binding);
    return created;
  });
}

/**
 * Connects to an MCP server and returns its tools as agentloop tools, plus `close()`. A stdio server is
 * started with `command` (and stopped by `close()`); a Streamable HTTP server is reached at `url`. The MCP SDK
 * (`@modelcontextprotocol/sdk`, an optional peer dependency) is loaded on the first call.
 *
 * Each tool is named `prefix + name` (sanitised to `^[a-zA-Z0-9_-]{1,64}$`), described by the server's
 * description and validated against its input schema. A call runs `tools/call` with the tool's `ctx.signal`
 * (an agentloop timeout or abort cancels the MCP request) and resolves with the result: text, or content
 * parts when the server returned images or binary resources (see `mcpResultContent`). `isError` results, protocol errors and MCP timeouts throw {@link McpToolError}; a
 * server that is gone throws `McpConnectionError` — for the call in flight as soon as the process exits or
 * the HTTP endpoint stops answering, and at once for every later call. The executor reports both to the model.
 *
 * Rejects with `InvalidArgumentError` for invalid options (before starting anything), an `include` name the
 * server lacks, or two tools whose sanitised names clash, and with `McpConnectionError` when the server
 * cannot be started or reached; nothing is left running then.
 *
 * @example
 * const everything = await mcpTools({ command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"], prefix: "everything_" });
 * const agent = new Agent({ model, tools: everything.tools });
 * try { await agent.run("Add 2 and 3"); } finally { await everything.close(); }
 */
export async function mcpTools(options: McpToolsOptions): Promise<McpToolSet> {
  validateMcpOptions(options);
  const connection = await McpConnection.open(options);
  try {
    const infos = await connection.listTools({
      timeoutMs: Math.min(options.connectTimeoutMs ?? DEFAULT_MCP_TIMEOUT_MS, NO_MCP_TIMEOUT),
    });
    const tools = createTools(connection, infos, options);
    return {
      tools,
      serverInfo: connection.serverInfo,
      server: connection.server,
      get pid() {
        return connection.pid;
      },
      get closed() {
        return connection.closed;
      },
      close: () => connection.close(),
    };
  } catch (error) {
    await connection.close();
    throw error;
  }
}
