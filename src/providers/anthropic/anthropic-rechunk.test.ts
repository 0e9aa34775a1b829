import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../../models/model.js";
import {
  type FixtureServer,
  type ScriptedResponse,
  startFixtureServer,
} from "../openai/test-utils/fixture-server.js";
import { randomSplits, utf8InnerOffsets } from "../openai/test-utils/fixtures.js";
import { foldParts, readParts, streamContractViolation } from "../openai/test-utils/stream-parts.js";
import type { AnthropicWireResponse } from "./anthropic-wire-types.js";
import { createAnthropic } from "./create-anthropic.js";
import { encodeAnthropicSse } from "./test-utils/encode-anthropic-sse.js";
import { expectFolded, NONSTREAM_EXPECTED, STREAM_EXPECTED } from "./test-utils/expected-results.js";
import { readFixture, readNockEntries, streamBody } from "./test-utils/fixtures.js";

const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };
const THINKING_JSON = "nonstream-thinking.json";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function expectedFor(name: string) {
  const expected = STREAM_EXPECTED[name] ?? NONSTREAM_EXPECTED[name];
  if (expected === undefined) throw new Error(`no expectation for ${name}`);
  return expected;
}

function model(baseURL: string, transport: "node" | "fetch") {
  return createAnthropic({
    baseURL,
    apiKey: "test-key",
    ...(transport === "fetch" && { fetch: globalThis.fetch }),
  })("claude-sonnet-4-5");
}

/** Serves `script` as a stream and returns the folded answer plus its parts. */
async function runStream(script: ScriptedResponse, transport: "node" | "fetch" = "node") {
  server = await startFixtureServer(script);
  const parts = await readParts(model(server.baseURL, transport).stream(request));
  expect(streamContractViolation(parts)).toBeUndefined();
  return { parts, response: foldParts(parts) };
}

/** Offsets inside every multi-byte character: after the lead byte and one byte later. */
function insideCharacters(bytes: Uint8Array): number[] {
  return [...new Set(utf8InnerOffsets(bytes).flatMap((at) => [at, at + 1]))].sort((a, b) => a - b);
}

describe("Anthropic streams re-chunked at arbitrary byte boundaries", () => {
  describe.each(Object.keys(STREAM_EXPECTED))("%s", (name) => {
    const body = streamBody(name);

    it.each([1, 2, 3])(
      "random chunks up to 40 bytes (seed %i) fold to the unchunked result",
      async (seed) => {
        const whole = await runStream({ body });
        await server?.close();
        const chunked = await runStream({ body, splitAt: randomSplits(body.length, seed, 40) });
        expect(chunked.response).toEqual(whole.response);
        expectFolded(name, chunked.response, expectedFor(name));
      },
    );

    it("1-byte chunks (the first 4 KB byte by byte, then up to 8 bytes) fold to the expected result", async () => {
      const splits = [
        ...Array.from({ length: Math.min(4096, body.length - 1) }, (_, i) => i + 1),
        ...randomSplits(body.length, 7, 8).filter((at) => at > 4096),
      ];
      const { response } = await runStream({ body, splitAt: splits });
      expectFolded(name, response, expectedFor(name));
    });

    it("random chunks through a user-supplied fetch (undici) fold to the expected result", async () => {
      const { response } = await runStream({ body, splitAt: randomSplits(body.length, 11, 64) }, "fetch");
      expectFolded(name, response, expectedFor(name));
    });
  });
});

describe("raw multi-byte UTF-8 split across writes", () => {
  // No streamed Anthropic recording has raw UTF-8 (NOTES §29); the non-streaming ones do. SYNTHETIC: the
  // stream below is nonstream-thinking.json re-encoded as SSE events by the test encoder.
  const recorded = JSON.parse(readFixture(THINKING_JSON).toString("utf8")) as AnthropicWireResponse;
  const syntheticStream = Buffer.from(encodeAnthropicSse({ message: recorded, chunkChars: 7 }));

  it("the sources have multi-byte characters to split", () => {
    // "—" twice and "✓" three times (3 bytes each), in the text block.
    expect(utf8InnerOffsets(readFixture(THINKING_JSON))).toHaveLength(5);
    expect(utf8InnerOffsets(syntheticStream)).toHaveLength(5);
  });

  it.each(["node", "fetch"] as const)(
    "a synthetic thinking stream split inside every character folds like generate (%s transport)",
    async (transport) => {
      const splits = insideCharacters(syntheticStream);
      const { response, parts } = await runStream(
        { body: syntheticStream, splitAt: splits, writeDelayMs: 1 },
        transport,
      );
      expectFolded(THINKING_JSON, response, expectedFor(THINKING_JSON));
      expect(response.text).not.toContain("\uFFFD");
      expect(parts.some((part) => part.type === "text_delta" && part.delta.includes("—"))).toBe(true);
    },
  );

  it.each(["node", "fetch"] as const)(
    "nonstream-thinking.json split inside every character parses to the recorded answer (%s transport)",
    async (transport) => {
      const body = readFixture(THINKING_JSON);
      server = await startFixtureServer({
        body,
        contentType: "application/json",
        splitAt: insideCharacters(body),
        writeDelayMs: 1,
      });
      const response = await model(server.baseURL, transport).generate(request);
      expectFolded(THINKING_JSON, response, expectedFor(THINKING_JSON));
    },
  );

  it("nock entries with raw UTF-8 split inside every character parse unchanged", async () => {
    const withUtf8 = readNockEntries().filter(
      (entry) => Buffer.byteLength(JSON.stringify(entry.response)) > JSON.stringify(entry.response).length,
    );
    expect(withUtf8.length).toBeGreaterThan(0);
    for (const entry of withUtf8) {
      const body = Buffer.from(JSON.stringify(entry.response));
      server = await startFixtureServer({
        body,
        contentType: "application/json",
        splitAt: insideCharacters(body),
      });
      const response = await model(server.baseURL, "node").generate(request);
      expect(response.raw).toEqual(entry.response);
      const text = (entry.response.content ?? [])
        .map((block) => (block.type === "text" ? block.text : ""))
        .join("");
      expect(response.text).toBe(text);
      await server.close();
      server = undefined;
    }
  });
});
