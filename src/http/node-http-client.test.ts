import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AbortError } from "../errors/abort-error.js";
import { createNodeHttpClient } from "./node-http-client.js";

let server: Server;
let port: number;
const seen: Array<{ url: string | undefined; authorization: string | undefined; body: string }> = [];

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return text;
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    seen.push({ url: req.url, authorization: req.headers.authorization, body });
    if (req.url === "/hang") return; // never answers
    res.end(`you asked for ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("createNodeHttpClient", () => {
  it("sends each request to its own URL: path, query and credentials kept (URLs parsed once, cached)", async () => {
    const client = createNodeHttpClient();
    // More distinct URLs than the cache keeps, then the first ones again.
    const urls = Array.from({ length: 70 }, (_, i) => `http://127.0.0.1:${port}/v${i}/chat?x=${i}`);
    for (const url of [...urls, ...urls.slice(0, 3)]) {
      const response = await client({ url, method: "POST", headers: {}, body: "{}" });
      expect(await response.text()).toBe(`you asked for ${new URL(url).pathname}${new URL(url).search}`);
    }
    const response = await client({
      url: `http://user%40x:p%3Ass@127.0.0.1:${port}/auth`,
      method: "POST",
      headers: {},
      body: "hi",
    });
    await response.text();
    const last = seen.at(-1);
    expect(last?.url).toBe("/auth");
    expect(last?.body).toBe("hi");
    expect(last?.authorization).toBe(`Basic ${Buffer.from("user@x:p:ss").toString("base64")}`);
  });

  it("an abort during the request rejects with AbortError; later aborts of the same signal touch nothing", async () => {
    const client = createNodeHttpClient();
    const controller = new AbortController();
    // Finished requests on the same signal first: their abort listeners must be gone.
    for (let i = 0; i < 3; i++) {
      const ok = await client({
        url: `http://127.0.0.1:${port}/ok`,
        method: "POST",
        headers: {},
        body: "",
        signal: controller.signal,
      });
      await ok.text();
    }
    const pending = client({
      url: `http://127.0.0.1:${port}/hang`,
      method: "POST",
      headers: {},
      body: "",
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error("stop")), 20);
    const error = await pending.catch((e: unknown) => e);
    expect(AbortError.isInstance(error)).toBe(true);
  });

  it("an invalid URL rejects (never throws synchronously)", async () => {
    const client = createNodeHttpClient();
    let result: Promise<unknown> | undefined;
    expect(() => {
      result = client({ url: "not a url", method: "POST", headers: {}, body: "" });
    }).not.toThrow();
    await expect(result).rejects.toThrow();
  });
});
