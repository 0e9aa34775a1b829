import { afterEach, describe, expect, it } from "vitest";
import { type FixtureServer, startFixtureServer } from "../providers/openai/test-utils/fixture-server.js";
import { createFetchHttpClient, createNodeHttpClient, type HttpClient } from "./http-client.js";

// `HttpRequest.binary`: a 2xx body arrives as binary strings (one character per byte), whatever the byte
// values and however the body is split, through both transports; an error body stays UTF-8 text.

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const transports: [string, () => HttpClient][] = [
  ["node:http", () => createNodeHttpClient()],
  ["fetch", () => createFetchHttpClient(globalThis.fetch)],
];

describe.each(transports)("binary bodies over %s", (_, makeClient) => {
  it("gives back every byte (0x00 to 0xFF, split inside UTF-8-looking sequences)", async () => {
    const bytes = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7) % 256));
    server = await startFixtureServer({ body: bytes, splitAt: [1, 2, 3, 100, 101, 255, 256, 400] });
    const response = await makeClient()({ url: server.baseURL, method: "POST", headers: {}, binary: true });
    let text = "";
    for await (const chunk of response.body) text += chunk;
    expect(Buffer.from(text, "latin1").equals(bytes)).toBe(true);
  });

  it("reads an error body as UTF-8 text", async () => {
    server = await startFixtureServer({ status: 400, body: '{"message":"café ✓"}' });
    const response = await makeClient()({ url: server.baseURL, method: "POST", headers: {}, binary: true });
    expect(await response.text()).toBe('{"message":"café ✓"}');
  });
});
