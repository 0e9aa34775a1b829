import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { AgentLoader, type AgentLoadState } from "./agent-loader.js";
import { authorizeDevRequest } from "./authorize-dev-request.js";
import { createDevDemoAgent } from "./create-dev-demo-agent.js";
import { type DevApiContext, handleDevApi, sendError } from "./dev-api.js";
import { DevRuns } from "./dev-runs.js";
import { DevTraces } from "./dev-traces.js";
import { DEFAULT_DEV_DIR, type DevWorkspace, openDevWorkspace } from "./dev-workspace.js";
import { findDevUiDir, serveDevUi } from "./serve-dev-ui.js";

/** Options of {@link startDevServer}. */
export interface DevServerOptions {
  /** The agent file (resolved against `cwd`); without one, the demo agent (no key needed). */
  agentFile?: string;
  /** The working directory: relative paths, the demo's tools' root. */
  cwd: string;
  /** The address to listen on (default 127.0.0.1). */
  host?: string;
  /** The port (default 0: a free one). */
  port?: number;
  /** Where sessions, runs and traces are kept (default {@link DEFAULT_DEV_DIR}), unless `memory`. */
  dir?: string;
  /** Keep sessions and runs in memory, traces in a temporary directory. */
  memory?: boolean;
  /** Reload the agent file when it changes (default true). */
  watch?: boolean;
  /** The built UI's directory (default: found next to the package's dist/, see `findDevUiDir`). */
  uiDir?: string;
  /** The per-launch token (default: 24 random bytes, base64url). */
  token?: string;
  /** Heartbeat interval of run streams. */
  heartbeatMs?: number;
  /** Told about every reload of the agent file (the CLI prints a line). */
  onReload?: (state: AgentLoadState) => void;
}

/** A running dev server. */
export interface DevServer {
  /** The page's URL with the token after `#` (`http://127.0.0.1:4310/#token=…`): what to open. */
  url: string;
  /** The server's origin (`http://127.0.0.1:4310`). */
  origin: string;
  token: string;
  port: number;
  /** The agent now and the last load error. */
  agentState(): AgentLoadState;
  /** Where the agent comes from: the file, or the demo with its notice. */
  source: DevApiContext["source"];
  workspace: DevWorkspace;
  /** Stops the server, the file watch and the demo's mock server. */
  close(): Promise<void>;
}

/** Addresses that listen on every interface: the Host header of a request cannot be checked against them. */
const ANY_ADDRESS = new Set(["0.0.0.0", "::", "[::]"]);

/** The `host:port` names a request to this server may carry in `Host` (`undefined`: any, see above). */
function hostNames(host: string, port: number): Set<string> | undefined {
  if (ANY_ADDRESS.has(host)) return undefined;
  const names = new Set([`${host}:${port}`, `127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  if (host.includes(":") && !host.startsWith("[")) names.add(`[${host}]:${port}`);
  return new Set([...names].map((name) => name.toLowerCase()));
}

function decodeSegments(path: string): string[] | undefined {
  try {
    return path
      .split("/")
      .filter((segment) => segment !== "")
      .map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}

/**
 * Starts `agentloop dev`'s server (node:http): the built UI at `/`, the JSON + SSE API under `/api/` (docs/web.md,
 * "agentloop dev"). It listens on 127.0.0.1 by default; every API request must carry the per-launch token, and
 * requests naming another host or coming from another origin are refused.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const { cwd } = options;
  const workspace = await openDevWorkspace({
    dir: options.dir ?? DEFAULT_DEV_DIR,
    cwd,
    memory: options.memory ?? false,
  });
  let agentState: () => AgentLoadState;
  let source: DevApiContext["source"];
  let stopAgent: () => Promise<void> | void;
  if (options.agentFile !== undefined) {
    const file = resolve(cwd, options.agentFile);
    const loader = new AgentLoader({
      file,
      ...(options.watch !== undefined && { watch: options.watch }),
      ...(options.onReload !== undefined && { onReload: options.onReload }),
    });
    await loader.start();
    agentState = () => loader.state;
    source = { kind: "file", file };
    stopAgent = () => loader.close();
  } else {
    const demo = await createDevDemoAgent({ cwd });
    const state: AgentLoadState = { agent: demo.agent, version: 1, loadedAt: Date.now(), error: undefined };
    agentState = () => state;
    source = { kind: "demo", notice: demo.notice };
    stopAgent = () => demo.close();
  }
  const token = options.token ?? randomBytes(24).toString("base64url");
  const uiDir = options.uiDir ?? findDevUiDir();
  const context: DevApiContext = {
    agentState: () => agentState(),
    source,
    runs: new DevRuns({ workspace }),
    traces: new DevTraces({ dir: workspace.tracesDir, cwd }),
    workspace: workspace.where,
    ...(options.heartbeatMs !== undefined && { heartbeatMs: options.heartbeatMs }),
  };
  let hosts: Set<string> | undefined = new Set<string>();
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = (request.url ?? "/").split("?")[0] ?? "/";
    const api = path === "/api" || path.startsWith("/api/");
    const refusal = authorizeDevRequest({ request, hosts, token: api ? token : undefined });
    if (refusal !== undefined) {
      request.resume();
      return sendError(response, refusal.status, refusal.message, "Forbidden");
    }
    if (api) {
      const segments = decodeSegments(path.slice("/api".length));
      if (segments === undefined) return sendError(response, 400, "bad path");
      return handleDevApi({ request, response, segments, context });
    }
    request.resume();
    if (request.method !== "GET" && request.method !== "HEAD")
      return sendError(response, 405, "method not allowed");
    if (!(await serveDevUi({ path, response, dir: uiDir }))) sendError(response, 404, "not found");
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        sendError(response, 500, error instanceof Error ? error.message : String(error));
      else response.end();
    });
  });
  server.requestTimeout = 0; // Run streams last as long as the run.
  const host = options.host ?? "127.0.0.1";
  try {
    await new Promise<void>((resolveListen, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => resolveListen());
    });
  } catch (error) {
    await stopAgent();
    await workspace.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  hosts = hostNames(host, port);
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    token,
    port,
    agentState: () => agentState(),
    source,
    workspace,
    close() {
      closing ??= (async () => {
        server.closeAllConnections();
        await new Promise<void>((done) => server.close(() => done()));
        await stopAgent();
        await workspace.close();
      })();
      return closing;
    },
  };
}
