import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One scripted answer of the {@link startFixtureServer} server. */
export interface ScriptedResponse {
  /** HTTP status. Default 200. */
  status?: number;
  /** Content type. Default `text/event-stream` for 2xx, `application/json` otherwise. */
  contentType?: string;
  /** Extra response headers (e.g. `retry-after`). */
  headers?: Record<string, string>;
  /** The body bytes (a fixture's content). Default empty. */
  body?: string | Uint8Array;
  /** Byte offsets at which the body is split into separate writes (sorted, inside the body). */
  splitAt?: readonly number[];
  /** Pause between two writes: milliseconds, or 0 for one `setImmediate` turn. Default 0. */
  writeDelayMs?: number;
  /** Destroy the socket as soon as the request is read, without answering. */
  destroy?: boolean;
  /** Read the request and never answer. */
  hang?: boolean;
  /** Write this many body bytes (split as above), then destroy the socket. */
  destroyAfterBytes?: number;
  /** Write this many body bytes, then stay silent with the connection open. */
  stallAfterBytes?: number;
}

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The raw request body. */
  rawBody: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: unknown;
  /** Time the request was fully read (`performance.now()`). */
  at: number;
  /** True once the response ended normally; false while writing or when the client went away first. */
  finished: boolean;
  /** True when the connection closed before the response was fully written. */
  closedEarly: boolean;
}

/** A running fixture server. */
export interface FixtureServer {
  /** Base URL to give the provider, e.g. `http://127.0.0.1:51234/v1`. */
  baseURL: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Stops the server, dropping open connections. */
  close(): Promise<void>;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
}

function write(res: http.ServerResponse, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) resolve();
    else res.write(bytes, () => resolve());
  });
}

/** Writes `bytes` as separate writes split at `splitAt`, pausing between them. Stops if the client left. */
async function writeSlices(
  res: http.ServerResponse,
  bytes: Uint8Array,
  script: ScriptedResponse,
): Promise<void> {
  const cuts = [...(script.splitAt ?? []).filter((at) => at > 0 && at < bytes.length), bytes.length];
  let start = 0;
  for (const end of cuts) {
    if (res.destroyed) return;
    if (end <= start) continue;
    await write(res, bytes.subarray(start, end));
    start = end;
    if (end < bytes.length) await pause(script.writeDelayMs ?? 0);
  }
}

async function answer(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  script: ScriptedResponse,
): Promise<void> {
  if (script.destroy) {
    req.socket.destroy();
    return;
  }
  if (script.hang) return;
  const status = script.status ?? 200;
  const body = typeof script.body === "string" ? Buffer.from(script.body) : Buffer.from(script.body ?? []);
  res.writeHead(status, {
    "content-type": script.contentType ?? (status < 300 ? "text/event-stream" : "application/json"),
    ...script.headers,
  });
  res.flushHeaders();
  const cutAt = script.destroyAfterBytes ?? script.stallAfterBytes;
  if (cutAt === undefined) {
    await writeSlices(res, body, script);
    res.end();
    return;
  }
  await writeSlices(res, body.subarray(0, cutAt), script);
  if (script.destroyAfterBytes !== undefined) {
    await pause(20);
    res.socket?.destroy();
  }
}

/**
 * Starts a real `node:http` server on 127.0.0.1 (random port) for provider tests. Request `n` (0-based) gets
 * `script[n]`, or the last entry once the list is exhausted (a single object answers every request). Every
 * request's method, URL, headers and body are recorded.
 */
export async function startFixtureServer(
  script: ScriptedResponse | readonly ScriptedResponse[],
): Promise<FixtureServer> {
  const list: readonly ScriptedResponse[] = Array.isArray(script) ? script : [script as ScriptedResponse];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      raw += chunk;
    });
    req.on("end", () => {
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const record: RecordedRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        rawBody: raw,
        body,
        at: performance.now(),
        finished: false,
        closedEarly: false,
      };
      requests.push(record);
      res.on("finish", () => {
        record.finished = true;
      });
      res.on("close", () => {
        if (!record.finished) record.closedEarly = true;
      });
      const entry = list[Math.min(requests.length - 1, list.length - 1)] ?? {};
      answer(req, res, entry).catch(() => res.destroy());
    });
  });
  server.on("connection", (socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
