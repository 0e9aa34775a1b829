import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import { type DevServer, type DevServerOptions, startDevServer } from "../dev-server.js";
import { parseSse, type SseMessage } from "./sse-messages.js";

/** The absolute path of a source module, for agent files written by tests (vitest imports TypeScript). */
export const SRC = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** A test's dev server with helpers to call it. */
export interface TestDevServer {
  server: DevServer;
  dir: string;
  /** `fetch` of an API path with the token (unless `token: null`). */
  api(path: string, init?: RequestInit & { token?: string | null }): Promise<Response>;
  /** POSTs JSON and reads the whole SSE answer. */
  stream(path: string, body: unknown): Promise<{ status: number; messages: SseMessage[] }>;
}

/** Creates a temporary directory removed after the test. */
export function withTempDirs(): () => Promise<string> {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), "agentloop-dev-test-"));
    dirs.push(dir);
    return dir;
  };
}

/** Writes an agent file into `dir` (its imports name source modules by absolute path: see {@link SRC}). */
export async function writeAgentFile(dir: string, text: string, name = "agent.mjs"): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text, "utf8");
  return file;
}

/** Starts dev servers for a test and closes them after it. */
export function withDevServers(): (
  options: Partial<DevServerOptions> & { cwd: string },
) => Promise<TestDevServer> {
  const servers: DevServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (options) => {
    const server = await startDevServer({ memory: true, ...options });
    servers.push(server);
    const api = (path: string, init: RequestInit & { token?: string | null } = {}) => {
      const { token = server.token, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (token !== null) headers.set("x-agentloop-token", token);
      return fetch(`${server.origin}/api${path}`, { ...rest, headers });
    };
    return {
      server,
      dir: options.cwd,
      api,
      async stream(path, body) {
        const response = await api(path, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return { status: response.status, messages: parseSse(await response.text()) };
      },
    };
  };
}
