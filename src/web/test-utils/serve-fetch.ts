import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

/** A started test server. */
export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/** Starts a node:http server on 127.0.0.1 with `listener`. */
export async function listen(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<TestServer> {
  const server = createServer(listener);
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

/**
 * Serves a fetch-style handler (`(request) => Response`, e.g. a Hono app's `fetch`) from node:http, the way
 * `@hono/node-server` does: the request body as a web stream, the response body written with backpressure, and
 * the response body cancelled when the client goes away.
 */
export function serveFetch(handler: (request: Request) => Response | Promise<Response>): Promise<TestServer> {
  return listen(async (req, res) => {
    const controller = new AbortController();
    res.on("close", () => controller.abort());
    const method = req.method ?? "GET";
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value);
    }
    const body = method === "GET" || method === "HEAD" ? undefined : (Readable.toWeb(req) as ReadableStream);
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method,
      headers,
      body,
      signal: controller.signal,
      ...(body !== undefined && { duplex: "half" }),
    } as RequestInit);
    const response = await handler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) return void res.end();
    const reader = response.body.getReader();
    res.on("close", () => {
      if (!res.writableFinished) reader.cancel().catch(() => undefined);
    });
    try {
      while (true) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!res.write(value)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              res.off("drain", done);
              res.off("close", done);
              resolve();
            };
            res.on("drain", done);
            res.on("close", done);
          });
        }
      }
      res.end();
    } catch {
      res.destroy();
    }
  });
}
