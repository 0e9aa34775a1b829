/**
 * Issue #15, security: `http_get` refuses non-public destinations by default (SSRF), in every spelling, behind
 * any name that resolves to one, on every redirect hop, checked on the address each connection resolves to.
 * A real local server (127.0.0.1) stands in for the internal service; names are resolved by a test `lookup`.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LookupFunction } from "../../src/builtin-tools/address-policy.js";
import { nonPublicRange } from "../../src/builtin-tools/address-policy.js";
import { type HttpGetToolOptions, httpGetTool } from "../../src/builtin-tools/http-get-tool.js";
import { HttpGetError } from "../../src/errors/http-get-error.js";

let server: Server;
let port: number;
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(`${request.headers.host} ${request.url}`);
    if (request.url?.startsWith("/hop?")) {
      const to = new URL(request.url, "http://x").searchParams.get("to") ?? "/";
      response.writeHead(302, { location: to });
      response.end();
      return;
    }
    response.writeHead(200, { "content-type": "text/plain" });
    response.end("internal secret");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A resolver from a table (no real DNS); records every name it is asked. */
function tableLookup(table: Record<string, string[]>): { lookup: LookupFunction; asked: string[] } {
  const asked: string[] = [];
  const lookup: LookupFunction = (hostname, options, callback) => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (addresses === undefined) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), "");
      return;
    }
    const list = addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    if (options.all === true) callback(null, list);
    else callback(null, list[0]?.address ?? "", list[0]?.family);
  };
  return { lookup, asked };
}

async function refusal(url: string, options: HttpGetToolOptions = {}): Promise<string> {
  const before = requests.length;
  const outcome = await Promise.resolve(
    httpGetTool(options).execute({ url }, { signal: new AbortController().signal, toolCallId: "c", turn: 0 }),
  ).then(
    (text) => ({ text }),
    (error: unknown) => ({ error }),
  );
  expect(outcome).toHaveProperty("error");
  const error = (outcome as { error: unknown }).error;
  expect(HttpGetError.isInstance(error)).toBe(true);
  expect(requests.length).toBe(before); // nothing reached the internal server
  return (error as Error).message;
}

function fetchText(url: string, options: HttpGetToolOptions): Promise<string> {
  return Promise.resolve(
    httpGetTool(options).execute({ url }, { signal: new AbortController().signal, toolCallId: "c", turn: 0 }),
  );
}

describe("http_get refuses non-public address literals by default", () => {
  it.each([
    ["http://127.0.0.1:PORT/", /127\.0\.0\.1 is a loopback address/],
    ["http://127.1.2.3:PORT/", /loopback/],
    ["http://2130706433:PORT/", /127\.0\.0\.1 is a loopback address/],
    ["http://0x7f.1:PORT/", /127\.0\.0\.1 is a loopback address/],
    ["http://0x7f000001:PORT/", /127\.0\.0\.1 is a loopback address/],
    ["http://0177.0.0.1:PORT/", /127\.0\.0\.1 is a loopback address/],
    ["http://[::1]:PORT/", /::1 is a loopback address/],
    ["http://[::ffff:127.0.0.1]:PORT/", /loopback/],
    ["http://[::ffff:169.254.169.254]/latest/meta-data/", /link-local/],
    ["http://169.254.169.254/latest/meta-data/", /169\.254\.169\.254 is a link-local address/],
    ["http://[fe80::1]/", /link-local/],
    ["http://10.0.0.1/", /private-network/],
    ["http://172.16.5.4/", /private-network/],
    ["http://172.31.255.255/", /private-network/],
    ["http://192.168.1.1/", /private-network/],
    ["http://[fc00::1]/", /unique local/],
    ["http://[fd12:3456::1]/", /unique local/],
    ["http://0.0.0.0:PORT/", /unspecified/],
    ["http://0:PORT/", /unspecified/],
    ["http://[::]:PORT/", /unspecified/],
    ["http://100.64.0.1/", /carrier-grade NAT/],
    ["http://[::127.0.0.1]:PORT/", /IPv4-compatible/],
  ])("%s", async (template, reason) => {
    const message = await refusal(template.replace("PORT", String(port)));
    expect(message).toMatch(/^Refused http:\/\//);
    expect(message).toMatch(reason);
    expect(message).toMatch(/opt in with allowPrivateNetwork, or name the host in allowHosts/);
  });
});

describe("http_get checks the address a name resolves to, in the connection's own lookup", () => {
  it.each([
    [
      "metadata.example",
      ["169.254.169.254"],
      /"metadata\.example" resolves to 169\.254\.169\.254, which is a link-local/,
    ],
    ["127.0.0.1.nip.io", ["127.0.0.1"], /resolves to 127\.0\.0\.1, which is a loopback address/],
    ["v6.example", ["::1"], /resolves to ::1, which is a loopback/],
    ["mapped.example", ["::ffff:10.1.2.3"], /private-network/],
    ["mixed.example", ["93.184.216.34", "10.0.0.7"], /resolves to 10\.0\.0\.7, which is a private-network/],
  ])("%s -> %j is refused", async (name, addresses, reason) => {
    const { lookup, asked } = tableLookup({ [name]: addresses });
    const message = await refusal(`http://${name}:${port}/`, { lookup });
    expect(message).toMatch(reason);
    expect(asked).toEqual([name]); // one resolution, the connection's own: nothing to rebind in between
  });

  it("localhost through the system resolver (/etc/hosts) is refused", async () => {
    expect(await refusal(`http://localhost:${port}/`)).toMatch(/"localhost" resolves to .*loopback/);
  });

  it("a redirect from an allowed host to a name that resolves to a private address is refused", async () => {
    // "public.example" is named in allowHosts (which opts that host in: here the local server plays it);
    // the redirect target is allowed by the wildcard, so only its resolved address can stop it.
    const { lookup } = tableLookup({ "public.example": ["127.0.0.1"], "internal.example": ["127.0.0.1"] });
    const target = `http://internal.example:${port}/secret`;
    const before = requests.length;
    const error = await Promise.resolve(
      httpGetTool({ lookup, allowHosts: ["public.example", "*.example"] }).execute(
        { url: `http://public.example:${port}/hop?to=${encodeURIComponent(target)}` },
        { signal: new AbortController().signal, toolCallId: "c", turn: 0 },
      ),
    ).then(
      () => undefined,
      (thrown: Error) => thrown,
    );
    expect(error?.message).toBe(
      `Refused the redirect from http://public.example:${port}/hop?to=${encodeURIComponent(target)} to ${target}: ` +
        '"internal.example" resolves to 127.0.0.1, which is a loopback address; private, loopback and ' +
        "link-local addresses are refused (opt in with allowPrivateNetwork, or name the host in allowHosts)",
    );
    expect(requests.slice(before)).toEqual([`public.example:${port} /hop?to=${encodeURIComponent(target)}`]);
  });

  it("a redirect to an address literal in another spelling is refused too", async () => {
    const { lookup } = tableLookup({ "public.example": ["127.0.0.1"] });
    const target = `http://0x7f.0.0.1:${port}/secret`;
    const options = { lookup, allowHosts: ["public.example", "127.0.0.1"] };
    // Named exactly, 127.0.0.1 is allowed; unnamed spellings of it are not on the list in the first place.
    const text = await fetchText(
      `http://public.example:${port}/hop?to=${encodeURIComponent(target)}`,
      options,
    );
    expect(text).toContain("internal secret");
    const refused = await refusal(`http://[::ffff:7f00:1]:${port}/`, {
      lookup,
      allowHosts: ["public.example"],
    });
    expect(refused).toMatch(/not on the allowlist/);
  });
});

describe("the opt-ins", () => {
  it("allowPrivateNetwork reaches loopback by literal, by number and by name", async () => {
    const { lookup } = tableLookup({ "internal.example": ["127.0.0.1"] });
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://2130706433:${port}/`,
      `http://internal.example:${port}/`,
    ]) {
      expect(await fetchText(url, { allowPrivateNetwork: true, lookup })).toContain("internal secret");
    }
  });

  it("a host named exactly in allowHosts may be private; a wildcard does not opt in", async () => {
    expect(await fetchText(`http://localhost:${port}/`, { allowHosts: ["localhost"] })).toContain(
      "internal secret",
    );
    const { lookup } = tableLookup({ "db.corp.example": ["10.0.0.1", "127.0.0.1"] });
    expect(
      await refusal(`http://db.corp.example:${port}/`, { lookup, allowHosts: ["*.corp.example"] }),
    ).toMatch(/private-network/);
  });

  it("public addresses are public", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "[2a00:1450:4001::200e]"]) {
      expect(nonPublicRange(address)).toBeUndefined();
    }
  });
});
