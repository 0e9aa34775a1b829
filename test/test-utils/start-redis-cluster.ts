// A real local Redis Cluster for tests: three `redis-server` processes in cluster mode on free ports (no
// persistence, files in a temp dir), joined with `redis-cli --cluster create` (three masters, no replicas).
// The cluster tests skip with a printed reason when redis-server is not installed.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Cluster, type ClusterOptions } from "ioredis";

const run = promisify(execFile);

/** The Redis server binary the cluster tests start (Debian's `redis-server` package). */
export const REDIS_SERVER = "/usr/bin/redis-server";

/** The CLI that joins the nodes (same package). */
export const REDIS_CLI = "/usr/bin/redis-cli";

/** Why the cluster tests skip, or `undefined` when both binaries are installed. */
export const REDIS_CLUSTER_SKIP_REASON =
  existsSync(REDIS_SERVER) && existsSync(REDIS_CLI)
    ? undefined
    : `${REDIS_SERVER} or ${REDIS_CLI} is not installed: Redis Cluster tests skipped`;

/** A running local cluster. */
export interface LocalRedisCluster {
  /** The nodes' addresses (all masters). */
  readonly nodes: ReadonlyArray<{ host: string; port: number }>;
  /** An ioredis `Cluster` on the nodes (closed by `stop` unless closed before). */
  connect(options?: ClusterOptions): Cluster;
  /** Closes the clients made by `connect`, kills the servers and removes their files. */
  stop(): Promise<void>;
}

/** Whether `port` can be bound on 127.0.0.1 right now. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A port whose cluster bus port (+10 000) is free too, not in `taken`. */
async function freeClusterPort(taken: Set<number>): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if (taken.has(port) || taken.has(port + 10_000)) continue;
    if ((await portFree(port)) && (await portFree(port + 10_000))) {
      taken.add(port);
      taken.add(port + 10_000);
      return port;
    }
  }
  throw new Error("no free port pair for a Redis Cluster node");
}

async function cli(args: string[], timeout = 10_000): Promise<string> {
  const { stdout } = await run(REDIS_CLI, args, { timeout });
  return stdout;
}

/** Polls `check` every 100 ms until it resolves true, or throws `what` after `ms`. */
async function waitFor(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Redis Cluster: ${what} within ${ms} ms`);
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 3_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * Starts three `redis-server --cluster-enabled yes` processes on free ports in a temp dir, creates the cluster
 * with `redis-cli --cluster create ... --cluster-replicas 0 --cluster-yes` and waits until every node reports
 * `cluster_state:ok`. Call `stop()` after (kills them even when a later step failed).
 */
export async function startRedisCluster(): Promise<LocalRedisCluster> {
  if (REDIS_CLUSTER_SKIP_REASON !== undefined) throw new Error(REDIS_CLUSTER_SKIP_REASON);
  const dir = await mkdtemp(join(tmpdir(), "agentloop-redis-cluster-"));
  const children: ChildProcess[] = [];
  const clients: Cluster[] = [];
  const output: string[] = [];
  const stop = async () => {
    await Promise.allSettled(clients.map((client) => client.quit().catch(() => client.disconnect())));
    await Promise.all(children.map(stopProcess));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const taken = new Set<number>();
    const ports: number[] = [];
    for (let index = 0; index < 3; index++) ports.push(await freeClusterPort(taken));
    for (const port of ports) {
      const child = spawn(
        REDIS_SERVER,
        [
          "--port",
          String(port),
          "--bind",
          "127.0.0.1",
          "--cluster-enabled",
          "yes",
          "--cluster-config-file",
          join(dir, `nodes-${port}.conf`),
          "--dir",
          dir,
          "--save",
          "",
          "--appendonly",
          "no",
          "--daemonize",
          "no",
        ],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      child.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
      child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
      children.push(child);
    }
    for (const port of ports) {
      await waitFor(`node ${port} answering PING`, 10_000, async () =>
        (await cli(["-p", String(port), "ping"], 2_000)).includes("PONG"),
      );
    }
    await cli(
      [
        "--cluster",
        "create",
        ...ports.map((port) => `127.0.0.1:${port}`),
        "--cluster-replicas",
        "0",
        "--cluster-yes",
      ],
      30_000,
    );
    for (const port of ports) {
      await waitFor(`cluster_state:ok on node ${port}`, 15_000, async () =>
        (await cli(["-p", String(port), "cluster", "info"], 2_000)).includes("cluster_state:ok"),
      );
    }
    const nodes = ports.map((port) => ({ host: "127.0.0.1", port }));
    return {
      nodes,
      connect: (options = {}) => {
        const client = new Cluster(nodes, options);
        client.on("error", () => undefined);
        clients.push(client);
        return client;
      },
      stop,
    };
  } catch (error) {
    await stop();
    const log = output.join("").slice(-2_000);
    throw new Error(`could not start a local Redis Cluster: ${String(error)}\n${log}`, { cause: error });
  }
}
