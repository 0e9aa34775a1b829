import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import type { McpStdioOptions } from "../mcp-options.js";

/** The entry point of the reference MCP server (`@modelcontextprotocol/server-everything`). */
export const EVERYTHING_SERVER = fileURLToPath(
  new URL("../../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);

/** `mcpTools` options that start the everything server over stdio (its stderr kept quiet). */
export function everythingStdio(): McpStdioOptions {
  return { command: process.execPath, args: [EVERYTHING_SERVER, "stdio"], stderr: "pipe" };
}

/** True while process `pid` exists. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pids of this process's children that run the everything server (Linux `ps`). */
export function everythingChildren(): number[] {
  const output = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], {
    encoding: "utf8",
  });
  return output
    .split("\n")
    .filter((line) => line.includes("server-everything"))
    .map((line) => Number.parseInt(line.trim(), 10));
}

/** Waits until process `pid` is gone (polling), at most `timeoutMs`; resolves with whether it is gone. */
export async function waitForExit(pid: number, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** A free TCP port on 127.0.0.1 (asked from the OS, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  server.close();
  await once(server, "close");
  return port;
}

/** Stops a child process: SIGTERM, then SIGKILL after `graceMs`. Resolves once it has exited. */
export async function stopProcess(child: ChildProcess, graceMs = 2_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A running everything server in Streamable HTTP mode. */
export interface HttpEverythingServer {
  /** Its MCP endpoint, e.g. `http://127.0.0.1:40123/mcp`. */
  url: string;
  child: ChildProcess;
  /** SIGTERM, then SIGKILL. */
  stop(): Promise<void>;
}

/**
 * Starts the everything server in `streamableHttp` mode on a free port (it reads `PORT`) and resolves once it
 * listens (it says so on stderr). Rejects, with the process stopped, if it exits or is silent for 15 s.
 */
export async function startHttpEverything(): Promise<HttpEverythingServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING_SERVER, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let output = "";
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 15_000);
      child.stderr?.on("data", (chunk: Buffer) => {
        output += String(chunk);
        if (output.includes(`listening on port ${port}`)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited with ${code}: ${output}`));
      });
    });
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { url: `http://127.0.0.1:${port}/mcp`, child, stop: () => stopProcess(child) };
}
