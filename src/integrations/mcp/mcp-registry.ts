import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import { checkToolSecrets } from "../../tools/check-tool-secrets.js";
import type { Tool } from "../../tools/tool.js";
import { formatMcpResult } from "./format-mcp-result.js";
import { DEFAULT_MCP_TIMEOUT_MS } from "./mcp-connection.js";
import type { McpToolsOptions } from "./mcp-options.js";
import { callMcpTool, type McpToolSet, mcpToolBinding, mcpTools } from "./mcp-tools.js";

/** One tool in {@link McpRegistry.describe}. */
export interface McpToolDescription {
  /** The registry name of the server it comes from. */
  server: string;
  /** The agentloop (prefixed) tool name. */
  name: string;
  /** The server's description of it. */
  description: string;
}

/** Options of {@link McpRegistry.call}. */
export interface McpRegistryCallOptions {
  /** Cancels the call (the server is told); it then rejects with `AbortError`. */
  signal?: AbortSignal;
}

/**
 * Several MCP servers under one roof: their tools for an agent, a listing, direct calls, one `close()`.
 *
 * @example
 * const mcp = new McpRegistry();
 * await mcp.add("everything", { command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] });
 * await mcp.add("docs", { url: "https://example.com/mcp", headers: { Authorization: `Bearer ${token}` } });
 * const agent = new Agent({ model, tools: mcp.tools() }); // everything_echo, docs_search, …
 * try { await agent.run("…"); } finally { await mcp.close(); }
 */
export class McpRegistry {
  /** Servers by name, in the order `add` was called; undefined while connecting. */
  private readonly entries = new Map<string, McpToolSet | undefined>();
  private readonly byName = new Map<string, { server: string; tool: Tool }>();
  /** `add` calls in progress (`close` waits for them). */
  private readonly adding = new Set<Promise<unknown>>();
  /** Incremented by `close()`: an `add` that started before it closes its server instead of adding it. */
  private generation = 0;

  /**
   * Connects server `name` (see `mcpTools` for `options`) and adds its tools. The prefix defaults to
   * `` `${name}_` `` (pass `prefix: ""` for none), the server label in errors to `name`. Rejects with
   * `InvalidArgumentError` when `name` is taken or invalid, when a tool name clashes with one of another
   * server, or when a tool's description (or a description in its input schema) holds what looks like a secret
   * (the check of `ToolRegistry.register`; the new server is closed then, and `exclude` leaves such a tool
   * out); with `McpConnectionError` when the server cannot be reached.
   */
  async add(name: string, options: McpToolsOptions): Promise<McpToolSet> {
    if (typeof name !== "string" || name === "") {
      throw new InvalidArgumentError({ argument: "name", message: "expected a non-empty string" });
    }
    if (this.entries.has(name)) {
      throw new InvalidArgumentError({
        argument: "name",
        message: `a server named "${name}" is already added`,
      });
    }
    this.entries.set(name, undefined);
    const adding = this.connect(name, options);
    this.adding.add(adding);
    try {
      return await adding;
    } finally {
      this.adding.delete(adding);
    }
  }

  private async connect(name: string, options: McpToolsOptions): Promise<McpToolSet> {
    const generation = this.generation;
    let set: McpToolSet;
    try {
      set = await mcpTools({ ...options, prefix: options?.prefix ?? `${name}_`, server: name });
    } catch (error) {
      if (generation === this.generation) this.entries.delete(name);
      throw error;
    }
    if (generation !== this.generation) {
      await set.close();
      throw new InvalidArgumentError({
        argument: "name",
        message: `the registry was closed while "${name}" connected`,
      });
    }
    const clash = set.tools.find((candidate) => this.byName.has(candidate.name));
    if (clash !== undefined) {
      this.entries.delete(name);
      await set.close();
      throw new InvalidArgumentError({
        argument: "name",
        message:
          `tool "${clash.name}" of server "${name}" clashes with one of server ` +
          `"${this.byName.get(clash.name)?.server}"; give the servers distinct prefixes`,
      });
    }
    // The registry's secret check, as `ToolRegistry.register` does it: no tool that carries a secret in what the
    // model would read is listed, described or callable here.
    try {
      for (const created of set.tools) {
        checkToolSecrets({
          tool: created,
          remedy: `leave it out with \`exclude\` (server "${name}")`,
        });
      }
    } catch (error) {
      this.entries.delete(name);
      await set.close();
      throw error;
    }
    this.entries.set(name, set);
    for (const created of set.tools) this.byName.set(created.name, { server: name, tool: created });
    return set;
  }

  private connected(): Array<[string, McpToolSet]> {
    return [...this.entries].filter((entry): entry is [string, McpToolSet] => entry[1] !== undefined);
  }

  /** Every tool of every connected server, in the order `add` was called. */
  tools(): Tool[] {
    return this.connected().flatMap(([, set]) => set.tools);
  }

  /** The connected servers' names, in the order `add` was called. */
  servers(): string[] {
    return this.connected().map(([name]) => name);
  }

  /**
   * Every tool as `{ server, name, description }` (agentloop names, prefixes included), in the order of
   * {@link McpRegistry.tools} — e.g. for a system prompt or a `/tools` command.
   */
  describe(): McpToolDescription[] {
    return this.connected().flatMap(([server, set]) =>
      set.tools.map((entry) => ({ server, name: entry.name, description: entry.description })),
    );
  }

  /**
   * Calls tool `name` (the agentloop name, prefix included) directly with `args` and resolves with its result
   * as text. The server validates the arguments. Times out after the server's `timeoutMs` (default 60 s).
   * Rejects with `InvalidArgumentError` for an unknown tool or non-object `args`, `McpToolError` when the tool
   * fails, `McpConnectionError` when its server is gone, `AbortError` when `signal` aborts.
   */
  async call(
    name: string,
    args: Record<string, unknown> = {},
    options: McpRegistryCallOptions = {},
  ): Promise<string> {
    const found = this.byName.get(name);
    const binding = found === undefined ? undefined : mcpToolBinding(found.tool);
    if (binding === undefined) {
      const known = [...this.byName.keys()].join(", ") || "none";
      throw new InvalidArgumentError({
        argument: "name",
        message: `no MCP tool named "${name}" (known: ${known})`,
      });
    }
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      throw new InvalidArgumentError({ argument: "args", message: "expected an object of arguments" });
    }
    const result = await callMcpTool({
      binding,
      args,
      signal: options.signal,
      timeoutMs: binding.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS,
    });
    return formatMcpResult({ result });
  }

  /**
   * Closes every server (servers still connecting are closed once connected) and empties the registry; it can
   * be used again afterwards. Never rejects.
   */
  async close(): Promise<void> {
    const sets = this.connected().map(([, set]) => set);
    this.generation++;
    this.entries.clear();
    this.byName.clear();
    await Promise.allSettled([...sets.map((set) => set.close()), ...this.adding]);
  }
}
