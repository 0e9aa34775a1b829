import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../../models/model.js";
import {
  type FixtureServer,
  type ScriptedResponse,
  startFixtureServer,
} from "../openai/test-utils/fixture-server.js";
import { randomSplits } from "../openai/test-utils/fixtures.js";
import { foldParts, readParts, streamContractViolation } from "../openai/test-utils/stream-parts.js";
import { createGoogle } from "./create-google.js";
import { expectFolded, NONSTREAM_EXPECTED, STREAM_EXPECTED } from "./test-utils/expected-results.js";
import { readFixture, streamBody, streamContentType } from "./test-utils/fixtures.js";

const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function model(baseURL: string, transport: "node" | "fetch") {
  return createGoogle({
    baseURL,
    apiKey: "test-key",
    ...(transport === "fetch" && { fetch: globalThis.fetch }),
  })("gemini-2.5-flash");
}

/** Serves `script` as a stream and returns the folded answer. */
async function runStream(script: ScriptedResponse, transport: "node" | "fetch" = "node") {
  server = await startFixtureServer(script);
  const parts = await readParts(model(server.baseURL, transport).stream(request));
  expect(streamContractViolation(parts)).toBeUndefined();
  return foldParts(parts);
}

/** Every offset between a `\r` and its `\n`: the CRLF event separators cut in half. */
function insideCrlf(bytes: Buffer): number[] {
  const offsets: number[] = [];
  for (let at = bytes.indexOf("\r\n"); at >= 0; at = bytes.indexOf("\r\n", at + 1)) offsets.push(at + 1);
  return offsets;
}

describe("Gemini streams re-chunked at arbitrary byte boundaries", () => {
  describe.each(Object.entries(STREAM_EXPECTED))("%s", (name, expected) => {
    const body = streamBody(name);
    const contentType = streamContentType(name);

    it.each([1, 2, 3])("random chunks up to 40 bytes (seed %i) fold to the expected result", async (seed) => {
      const response = await runStream({ body, contentType, splitAt: randomSplits(body.length, seed, 40) });
      expectFolded(response, expected);
    });

    it("1-byte chunks (the first 4 KB byte by byte, then up to 8 bytes) fold to the expected result", async () => {
      const splits = [
        ...Array.from({ length: Math.min(4096, body.length - 1) }, (_, i) => i + 1),
        ...randomSplits(body.length, 7, 8).filter((at) => at > 4096),
      ];
      expectFolded(await runStream({ body, contentType, splitAt: splits }), expected);
    });

    it("chunks cut between every \\r and \\n fold to the expected result", async () => {
      const splits = insideCrlf(body);
      if (contentType === "text/event-stream") expect(splits.length).toBeGreaterThanOrEqual(2);
      expectFolded(await runStream({ body, contentType, splitAt: splits, writeDelayMs: 1 }), expected);
    });

    it("random chunks through a user-supplied fetch (undici) fold to the expected result", async () => {
      const splits = randomSplits(body.length, 11, 64);
      expectFolded(await runStream({ body, contentType, splitAt: splits }, "fetch"), expected);
    });
  });
});

describe("Gemini non-streaming bodies split into random writes", () => {
  describe.each(Object.entries(NONSTREAM_EXPECTED))("%s", (name, expected) => {
    it.each(["node", "fetch"] as const)("parse to the expected result (%s transport)", async (transport) => {
      const body = readFixture(name);
      server = await startFixtureServer({
        body,
        contentType: "application/json",
        splitAt: randomSplits(body.length, 5, 16),
      });
      expectFolded(await model(server.baseURL, transport).generate(request), expected);
    });
  });
});
