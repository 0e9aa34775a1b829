import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../../models/model.js";
import { createOpenAI } from "./create-openai.js";
import { expectFolded, STREAM_EXPECTED } from "./test-utils/expected-results.js";
import {
  type FixtureServer,
  type ScriptedResponse,
  startFixtureServer,
} from "./test-utils/fixture-server.js";
import { randomSplits, streamBody, utf8InnerOffsets } from "./test-utils/fixtures.js";
import { foldParts, readParts, streamContractViolation } from "./test-utils/stream-parts.js";

const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };
const STREAM_FIXTURES = Object.keys(STREAM_EXPECTED);
const OBFUSCATION = "stream-text-obfuscation.chunks.txt";

function expectedFor(name: string) {
  const expected = STREAM_EXPECTED[name];
  if (expected === undefined) throw new Error(`no expectation for ${name}`);
  return expected;
}

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Serves `script` and returns the folded answer plus its parts, via the default client or real `fetch`. */
async function run(script: ScriptedResponse, transport: "node" | "fetch" = "node") {
  server = await startFixtureServer(script);
  const openai = createOpenAI({
    baseURL: server.baseURL,
    apiKey: "sk-test",
    ...(transport === "fetch" && { fetch: globalThis.fetch }),
  });
  const parts = await readParts(openai("gpt-4o").stream(request));
  expect(streamContractViolation(parts)).toBeUndefined();
  return { parts, response: foldParts(parts) };
}

describe("OpenAI Chat streams re-chunked at arbitrary byte boundaries", () => {
  describe.each(STREAM_FIXTURES)("%s", (name) => {
    const body = streamBody(name);

    it.each([1, 2, 3])(
      "random chunks up to 40 bytes (seed %i) fold to the unchunked result",
      async (seed) => {
        const whole = await run({ body });
        await server?.close();
        const chunked = await run({ body, splitAt: randomSplits(body.length, seed, 40) });
        expect(chunked.response).toEqual(whole.response);
        expectFolded(name, chunked.response, expectedFor(name));
      },
    );

    it("1-byte chunks (the first 4 KB byte by byte, then up to 8 bytes) fold to the expected result", async () => {
      const splits = [
        ...Array.from({ length: Math.min(4096, body.length - 1) }, (_, i) => i + 1),
        ...randomSplits(body.length, 7, 8).filter((at) => at > 4096),
      ];
      const { response } = await run({ body, splitAt: splits });
      expectFolded(name, response, expectedFor(name));
    });

    it("random chunks through a user-supplied fetch (undici) fold to the expected result", async () => {
      const { response } = await run({ body, splitAt: randomSplits(body.length, 11, 64) }, "fetch");
      expectFolded(name, response, expectedFor(name));
    });
  });

  describe(`UTF-8 sequences split across writes (${OBFUSCATION})`, () => {
    const body = streamBody(OBFUSCATION);
    const inner = utf8InnerOffsets(body);

    it("has multi-byte characters to split", () => {
      // — and ’ (3 bytes each) in three places.
      expect(inner.length).toBeGreaterThanOrEqual(3);
    });

    it("the server really delivers pieces that end inside a character (raw socket reads)", async () => {
      const splits = [...new Set(inner.flatMap((at) => [at, at + 1]))].sort((a, b) => a - b);
      server = await startFixtureServer({ body, splitAt: splits, writeDelayMs: 15 });
      const chunks = await new Promise<Buffer[]>((resolve, reject) => {
        const req = http.request(`${server?.baseURL}/chat/completions`, { method: "POST" }, (res) => {
          const received: Buffer[] = [];
          res.on("data", (chunk: Buffer) => received.push(chunk));
          res.on("end", () => resolve(received));
          res.on("error", reject);
        });
        req.on("error", reject);
        req.end("{}");
      });
      expect(Buffer.concat(chunks).equals(body)).toBe(true);
      // A read that ends with a UTF-8 lead byte (0b11xxxxxx) or a continuation byte inside a sequence.
      const splitInside = chunks.filter((chunk) => {
        const last = chunk[chunk.length - 1] ?? 0;
        return last >= 0xc0 || (last >= 0x80 && (chunk[chunk.length - 2] ?? 0) >= 0xc0);
      });
      expect(splitInside.length).toBeGreaterThanOrEqual(3);
    });

    it.each(["node", "fetch"] as const)(
      "decodes characters split mid-sequence (%s transport)",
      async (transport) => {
        // Split inside every multi-byte character, once after the lead byte and once before the last byte, and
        // pause 15 ms between writes so each piece really arrives on its own.
        const splits = [...new Set(inner.flatMap((at) => [at, at + 1]))].sort((a, b) => a - b);
        const { response, parts } = await run({ body, splitAt: splits, writeDelayMs: 15 }, transport);
        expectFolded(OBFUSCATION, response, expectedFor(OBFUSCATION));
        expect(parts.some((part) => part.type === "text_delta" && part.delta.includes("—"))).toBe(true);
        expect(response.text).not.toContain("\uFFFD");
      },
    );
  });
});
