/** Options every MCP connection takes, whatever its transport. */
export interface McpCommonOptions {
  /**
   * Prepended to every tool name, e.g. `"everything_"`, so tools of several servers cannot clash. Names are
   * then sanitised to the provider rule `^[a-zA-Z0-9_-]{1,64}$` (other characters become `_`, longer names
   * are cut to 64 characters). Default: no prefix.
   */
  prefix?: string;
  /**
   * Timeout of each tool call in ms: the agentloop tool timeout and the MCP request timeout (`Infinity` for
   * none). Default: the agent's tool timeout governs (30 000 ms unless set there; it cancels the MCP request
   * through the tool's signal), and `McpRegistry.call` times out after 60 000 ms.
   */
  timeoutMs?: number;
  /** Timeout of connecting (starting the server, the handshake) and of listing its tools, in ms. Default 60 000. */
  connectTimeoutMs?: number;
  /** The client name sent to the server when connecting. Default "agentloop". */
  name?: string;
  /**
   * How errors and `McpRegistry.describe()` name the server. Default: the name the server reports, else the
   * command or the URL's host. `McpRegistry.add` sets it to the registry name.
   */
  server?: string;
  /** Only these tools (names as the server lists them, before prefixing). Default: all. */
  include?: readonly string[];
  /** Leave out these tools (names as the server lists them, before prefixing). Applied after `include`. */
  exclude?: readonly string[];
  /**
   * Which tools need a human decision before each call (the agent loop pauses with `awaiting_approval`, as
   * for any gated tool): `true` for all, or the names as the server lists them (before prefixing). Default:
   * none. Unknown names are refused, so a typo cannot leave a dangerous tool ungated.
   */
  needsApproval?: boolean | readonly string[];
}

/** A server started as a child process, spoken to over its stdin/stdout. */
export interface McpStdioOptions extends McpCommonOptions {
  /** The executable, e.g. `"npx"` or `process.execPath`. */
  command: string;
  /** Its arguments. */
  args?: readonly string[];
  /**
   * Extra environment variables. The process gets these on top of a safe default set (PATH, HOME, …), not
   * the whole environment of this process.
   */
  env?: Record<string, string>;
  /** The working directory of the process. Default: this process's. */
  cwd?: string;
  /**
   * Where the server's stderr goes: `"pipe"` (default) keeps its last lines for error messages and passes
   * each chunk to `onStderr` if given; `"inherit"` prints it on this process's stderr; `"ignore"` drops it.
   */
  stderr?: "pipe" | "inherit" | "ignore";
  /** With `stderr: "pipe"`: called with each chunk the server writes to stderr. */
  onStderr?: (text: string) => void;
  url?: never;
  headers?: never;
}

/** A remote server reached over Streamable HTTP. */
export interface McpHttpOptions extends McpCommonOptions {
  /** The endpoint, e.g. `"http://127.0.0.1:3001/mcp"`. */
  url: string | URL;
  /** Headers sent with every request (e.g. `Authorization`). */
  headers?: Record<string, string>;
  command?: never;
  args?: never;
  env?: never;
  cwd?: never;
  stderr?: never;
  onStderr?: never;
}

/** Options of `mcpTools`: a stdio server (`command`) or a Streamable HTTP server (`url`). */
export type McpToolsOptions = McpStdioOptions | McpHttpOptions;

/** What the server said about itself when connecting. */
export interface McpServerInfo {
  /** The server's name, e.g. "mcp-servers/everything". */
  name: string;
  /** The server's version. */
  version: string;
  /** A display name, when the server gives one. */
  title?: string;
  /** Usage instructions for the model, when the server gives them. */
  instructions?: string;
}
