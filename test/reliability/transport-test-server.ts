// A raw HTTP server for the transport tests: each request is answered by the test's handler, which writes
// whatever it likes (hostile bodies included). Records how many requests came.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** Answers one request; `body` is the request body as text, `index` counts requests from 0. */
export type RawHandler = (args: {
  req: IncomingMessage;
  res: ServerResponse;
  body: string;
  index: number;
}) => void;

/** A running raw server. */
export interface RawServer {
  /** Base URL ending in `/v1`. */
  url: string;
  /** Requests received so far. */
  count(): number;
  close(): Promise<void>;
}

/** Starts a raw server on 127.0.0.1 (a free port). */
export async function startRawServer(handler: RawHandler): Promise<RawServer> {
  let index = 0;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (part: string) => {
      body += part;
    });
    req.on("end", () => handler({ req, res, body, index: index++ }));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    count: () => index,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Writes `total` bytes of `fill` lazily (as the client reads), then ends: no large buffer in the test. */
export function writeLazily(res: ServerResponse, total: number, fill = "x", prefix = ""): void {
  const block = Buffer.from(fill.repeat(64 * 1024));
  let sent = 0;
  if (prefix !== "") {
    res.write(prefix);
    sent += Buffer.byteLength(prefix);
  }
  const pump = () => {
    while (sent < total) {
      const size = Math.min(block.length, total - sent);
      sent += size;
      if (!res.write(size === block.length ? block : block.subarray(0, size))) {
        res.once("drain", pump);
        return;
      }
    }
    res.end();
  };
  res.on("close", () => {
    sent = total;
  });
  pump();
}

/** One Chat Completions chunk as an SSE event. */
export function chatChunk(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

/** The transports every test runs through. */
export const TRANSPORTS = [
  { transport: "node:http", fetch: undefined },
  { transport: "fetch", fetch: globalThis.fetch },
] as const;
