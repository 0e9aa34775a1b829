import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";

/** A started test server. */
export interface ChatHttpServer {
  url: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/** A node:http request as a Web `Request` (its signal aborts when the client goes). */
async function toRequest(req: IncomingMessage, res: ServerResponse): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort(new Error("the client went"));
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
  }
  return new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers,
    body: req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks),
    signal: controller.signal,
  });
}

/** Writes a Web `Response` to node:http, chunk by chunk; a client that goes cancels the body (the run aborts). */
async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on("close", () => {
    if (!res.writableFinished) void reader.cancel(new Error("the client went"));
  });
  try {
    while (true) {
      const next = await reader.read();
      if (next.done) break;
      res.write(next.value);
    }
  } catch {
    // cancelled
  }
  res.end();
}

/**
 * A node:http server for the tests: `POST /api/chat` goes to `handler` (a fetch-style route), other GETs
 * serve the files of `staticDir` (the built useChat page).
 */
export async function startChatServer(options: {
  handler: (request: Request) => Promise<Response>;
  staticDir?: string;
}): Promise<ChatHttpServer> {
  const server = createServer(async (req, res) => {
    try {
      if (req.url?.startsWith("/api/chat") === true) {
        await writeResponse(await options.handler(await toRequest(req, res)), res);
        return;
      }
      if (options.staticDir === undefined || req.method !== "GET") {
        res.writeHead(404).end();
        return;
      }
      const path = req.url === "/" || req.url === undefined ? "/index.html" : req.url.split("?")[0];
      const file = join(options.staticDir, normalize(path ?? "/").replace(/^(\.\.[/\\])+/, ""));
      const body = await readFile(file).catch(() => undefined);
      if (body === undefined) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
