import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AbortError } from "../errors/abort-error.js";
import { HttpGetError } from "../errors/http-get-error.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { ToolContext } from "../tools/tool.js";
import { compileHostAllowlist } from "./host-allowlist.js";
import { type HttpGetToolOptions, httpGetTool } from "./http-get-tool.js";

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

interface TestServer {
  server: Server;
  origin: string;
  requests: string[];
}

async function startServer(host: string, handler: Handler): Promise<TestServer> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? "");
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://${host}:${port}`, requests };
}

/** What the 10 MB stream wrote before the client went away. */
const big = { written: 0, close: (_written: number): void => {} };
const bigClosed = new Promise<number>((resolve) => {
  big.close = resolve;
});

let a: TestServer;
let b: TestServer;

const HTML = `<!DOCTYPE html><html><head><title>Caf&eacute; &amp; Bar &#8211; Menu</title>
<style>body { color: red }</style><script>alert("x < y")</script></head>
<body><h1>Welcome</h1><p>Coffee &amp; tea &lt;3 &#x1F600; &nbsp;&copy;&nbsp;2024</p>
<ul><li>Espresso</li><li>Latte</li></ul><noscript>enable js</noscript><!-- hidden --><template><p>tpl</p></template>
<p>Line<br>break</p></body></html>`;

beforeAll(async () => {
  a = await startServer("127.0.0.1", (request, response) => {
    const url = new URL(request.url ?? "/", "http://x");
    const send = (status: number, type: string, body: string | Buffer): void => {
      response.writeHead(status, { "content-type": type });
      response.end(body);
    };
    switch (url.pathname) {
      case "/json":
        return send(200, "application/json", '{"name":"agentloop","tags":["a","b"]}');
      case "/html":
        return send(200, "text/html; charset=utf-8", HTML);
      case "/text":
        return send(200, "text/plain", "plain text");
      case "/binary":
        return send(200, "image/png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]));
      case "/missing":
        return send(404, "text/plain", "no such page");
      case "/redirect-in":
        response.writeHead(302, { location: "/json" });
        return response.end();
      case "/redirect-out":
        response.writeHead(302, { location: `${b.origin}/secret` });
        return response.end();
      case "/redirect-file":
        response.writeHead(301, { location: "file:///etc/passwd" });
        return response.end();
      case "/loop": {
        const hop = Number(url.searchParams.get("n") ?? 0);
        response.writeHead(307, { location: `/loop?n=${hop + 1}` });
        return response.end();
      }
      case "/slow":
        setTimeout(() => send(200, "text/plain", "late"), 5_000).unref();
        return;
      case "/big": {
        response.writeHead(200, { "content-type": "text/plain" });
        const chunk = Buffer.alloc(64 * 1024, "x");
        const total = 10 * 1024 * 1024;
        response.on("close", () => big.close(big.written));
        const pump = (): void => {
          while (big.written < total && !response.destroyed) {
            big.written += chunk.length;
            if (!response.write(chunk)) {
              response.once("drain", pump);
              return;
            }
          }
          if (big.written >= total) response.end();
        };
        return pump();
      }
      default:
        return send(500, "text/plain", "unexpected");
    }
  });
  b = await startServer("localhost", (_request, response) => {
    response.writeHead(200, { "content-type": "text/plain" });
    response.end("secret from the other host");
  });
});

afterAll(async () => {
  a.server.closeAllConnections();
  b.server.closeAllConnections();
  await Promise.all([a, b].map(({ server }) => new Promise((resolve) => server.close(resolve))));
});

function context(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { signal, toolCallId: "call", turn: 1 };
}

/** The test servers listen on loopback, so private addresses are opted in (refusing them is tested apart). */
function get(url: string, options: HttpGetToolOptions = {}, signal?: AbortSignal): Promise<string> {
  const tool = httpGetTool({ allowPrivateNetwork: true, ...options });
  return Promise.resolve(tool.execute({ url }, context(signal)));
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

describe("http_get: content", () => {
  it("pretty-prints JSON with the status line and the URL", async () => {
    expect(await get(`${a.origin}/json`)).toBe(
      `Status 200 OK\nURL: ${a.origin}/json\n\n{\n  "name": "agentloop",\n  "tags": [\n    "a",\n    "b"\n  ]\n}`,
    );
  });

  it("turns HTML into text: title first, scripts and styles dropped, entities decoded", async () => {
    const text = await get(`${a.origin}/html`);
    expect(text).toBe(
      `Status 200 OK\nURL: ${a.origin}/html\n\nTitle: Caf&eacute; & Bar – Menu\n\n` +
        "Welcome\n\nCoffee & tea <3 😀 © 2024\n\n- Espresso\n- Latte\n\nLine\nbreak",
    );
    expect(text).not.toMatch(/alert|color|enable js|hidden|tpl/);
  });

  it("returns other text as is and binary content as a placeholder", async () => {
    expect(await get(`${a.origin}/text`)).toBe(`Status 200 OK\nURL: ${a.origin}/text\n\nplain text`);
    expect(await get(`${a.origin}/binary`)).toMatch(
      /\n\n\[binary content \(image\/png\), 7 bytes, not shown\]$/,
    );
  });

  it("returns a non-2xx status with its body instead of throwing", async () => {
    expect(await get(`${a.origin}/missing`)).toBe(
      `Status 404 Not Found\nURL: ${a.origin}/missing\n\nno such page`,
    );
  });
});

describe("http_get: what may be fetched", () => {
  it("fetches a host on the allowlist and refuses one that is not, without a request", async () => {
    expect(await get(`${a.origin}/text`, { allowHosts: ["127.0.0.1"] })).toContain("plain text");
    const before = b.requests.length;
    const error = await failure(get(`${b.origin}/secret`, { allowHosts: ["127.0.0.1"] }));
    expect(HttpGetError.isInstance(error)).toBe(true);
    expect(error.message).toBe(`Refused ${b.origin}/secret: the host "localhost" is not on the allowlist`);
    expect(b.requests.length).toBe(before);
  });

  it("matches wildcards on subdomains only", async () => {
    const apex = await failure(get(`${b.origin}/secret`, { allowHosts: ["*.localhost"] }));
    expect(apex.message).toMatch(/the host "localhost" is not on the allowlist/);
    // Allowed by the wildcard: the request is made (it fails or succeeds depending on the resolver).
    const sub = await get(`http://app.localhost:${new URL(a.origin).port}/text`, {
      allowHosts: ["*.localhost"],
    }).then(
      (text) => text,
      (error: Error) => error.message,
    );
    expect(sub).not.toMatch(/Refused/);
    const allows = compileHostAllowlist({ hosts: ["*.Example.com", "api.test.", "::1", "bücher.de"] });
    expect(
      ["a.example.com", "a.b.example.com", "API.test", "api.test.", "[::1]", "xn--bcher-kva.de"].map(allows),
    ).toEqual([true, true, true, true, true, true]);
    expect(
      ["example.com", "badexample.com", "example.com.evil.org", "test", "other.test"].map(allows),
    ).toEqual([false, false, false, false, false]);
  });

  it.each([["https://example.com/a"], ["*.*.example.com"], ["example.com:8080"], [""], ["a b"]])(
    "refuses the allowlist entry %j",
    (entry) => {
      expect(() => httpGetTool({ allowHosts: [entry] })).toThrow(InvalidArgumentError);
    },
  );

  it.each([
    ["file:///etc/passwd"],
    ["ftp://127.0.0.1/file"],
    ["javascript:alert(1)"],
    ["data:text/plain,hi"],
  ])("refuses the scheme of %j", async (url) => {
    const error = await failure(get(url));
    expect(HttpGetError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(/only http and https URLs can be fetched/);
  });

  it("refuses an invalid URL", async () => {
    expect((await failure(get("not a url"))).message).toBe('Invalid URL "not a url"');
  });
});

describe("http_get: redirects", () => {
  it("follows a redirect inside the allowlist and reports the final URL", async () => {
    const text = await get(`${a.origin}/redirect-in`, { allowHosts: ["127.0.0.1"] });
    expect(text).toMatch(new RegExp(`^Status 200 OK\\nURL: ${a.origin}/json\\n`));
  });

  it("refuses a redirect from an allowed host to a host off the allowlist", async () => {
    const before = b.requests.length;
    const error = await failure(get(`${a.origin}/redirect-out`, { allowHosts: ["127.0.0.1"] }));
    expect(HttpGetError.isInstance(error)).toBe(true);
    expect(error.message).toBe(
      `Refused the redirect from ${a.origin}/redirect-out to ${b.origin}/secret: the host "localhost" is not on the allowlist`,
    );
    expect(b.requests.length).toBe(before);
    // Without an allowlist the same redirect is followed.
    expect(await get(`${a.origin}/redirect-out`)).toContain("secret from the other host");
  });

  it("refuses a redirect to another scheme", async () => {
    const error = await failure(get(`${a.origin}/redirect-file`));
    expect(error.message).toMatch(/Refused the redirect .* to file:\/\/\/etc\/passwd: only http and https/);
  });

  it("stops after maxRedirects", async () => {
    const before = a.requests.length;
    const error = await failure(get(`${a.origin}/loop`, { maxRedirects: 3 }));
    expect(error.message).toBe(`Too many redirects: ${a.origin}/loop redirected more than 3 times`);
    expect(a.requests.length - before).toBe(4);
    const none = await failure(get(`${a.origin}/redirect-in`, { maxRedirects: 0 }));
    expect(none.message).toMatch(/more than 0 times/);
  });
});

describe("http_get: limits", () => {
  it("cuts a 10 MB body at maxBytes and closes the connection", async () => {
    const text = await get(`${a.origin}/big`, { maxBytes: 64 * 1024 });
    expect(text).toMatch(/\n\n\[http_get: the body was cut after 65536 bytes\]$/);
    expect(text.split("x").length - 1).toBe(64 * 1024);
    // Resolves on the server's "close": the client went away before the 10 MB were written (what was written
    // beyond the limit sat in socket buffers, about 4 MB on Linux loopback).
    const written = await bigClosed;
    expect(written).toBeLessThan(10 * 1024 * 1024);
  });

  it("times out", async () => {
    const started = Date.now();
    const error = await failure(get(`${a.origin}/slow`, { timeoutMs: 200 }));
    expect(HttpGetError.isInstance(error)).toBe(true);
    expect(error.message).toBe(`Request to ${a.origin}/slow timed out after 200 ms`);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("aborts with the call's signal", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 100);
    const error = await failure(get(`${a.origin}/slow`, {}, controller.signal));
    expect(AbortError.isInstance(error)).toBe(true);
    const already = await failure(get(`${a.origin}/text`, {}, AbortSignal.abort()));
    expect(AbortError.isInstance(already)).toBe(true);
  });

  it("reports network failures", async () => {
    const closed = await startServer("127.0.0.1", () => {});
    await new Promise((resolve) => closed.server.close(resolve));
    const error = await failure(get(`${closed.origin}/`));
    expect(HttpGetError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(new RegExp(`^Request to ${closed.origin}/ failed: .*ECONNREFUSED`));
  });

  it("refuses invalid options", () => {
    expect(() => httpGetTool({ maxBytes: 0 })).toThrow(/maxBytes/);
    expect(() => httpGetTool({ timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(() => httpGetTool({ maxRedirects: 1.5 })).toThrow(/maxRedirects/);
  });
});
