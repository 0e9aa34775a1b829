import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../../models/model.js";
import { createOpenAI } from "../openai/create-openai.js";
import {
  type FixtureServer,
  type ScriptedResponse,
  startFixtureServer,
} from "../openai/test-utils/fixture-server.js";
import { randomSplits, utf8InnerOffsets } from "../openai/test-utils/fixtures.js";
import { foldParts, readParts, streamContractViolation } from "../openai/test-utils/stream-parts.js";
import { comparable, streamCases } from "./test-utils/responses-expected.js";
import { responsesStreamBody } from "./test-utils/responses-fixtures.js";

const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };
const CASES = streamCases();
const COMMENTARY = "stream-commentary-then-function-call.sse";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Serves `script` and returns the folded answer plus its parts, via the default client or real `fetch`. */
async function run(script: ScriptedResponse, transport: "node" | "fetch" = "node") {
  await server?.close();
  server = await startFixtureServer(script);
  const openai = createOpenAI({
    baseURL: server.baseURL,
    apiKey: "sk-test",
    ...(transport === "fetch" && { fetch: globalThis.fetch }),
  });
  const parts = await readParts(openai.responses("gpt-5").stream(request));
  expect(streamContractViolation(parts)).toBeUndefined();
  return { parts, response: foldParts(parts) };
}

describe("OpenAI Responses streams re-chunked at arbitrary byte boundaries", () => {
  describe.each(Object.entries(CASES))("%s", (_name, { body, expected }) => {
    it.each([1, 2, 3])(
      "random chunks up to 40 bytes (seed %i) fold to the unchunked result",
      async (seed) => {
        const whole = await run({ body });
        const chunked = await run({ body, splitAt: randomSplits(body.length, seed, 40) });
        expect(chunked.response).toEqual(whole.response);
        expect(comparable(chunked.response)).toEqual(expected);
      },
    );

    it("1-byte chunks (the first 4 KB byte by byte, then up to 8 bytes) fold to the expected result", async () => {
      const splits = [
        ...Array.from({ length: Math.min(4096, body.length - 1) }, (_, i) => i + 1),
        ...randomSplits(body.length, 7, 8).filter((at) => at > 4096),
      ];
      const { response } = await run({ body, splitAt: splits });
      expect(comparable(response)).toEqual(expected);
    });

    it("random chunks through a user-supplied fetch (undici) fold to the expected result", async () => {
      const { response } = await run({ body, splitAt: randomSplits(body.length, 11, 64) }, "fetch");
      expect(comparable(response)).toEqual(expected);
    });
  });

  describe(`UTF-8 sequences split across writes (${COMMENTARY})`, () => {
    const body = responsesStreamBody(COMMENTARY);
    const inner = utf8InnerOffsets(body);
    const expected = CASES[COMMENTARY]?.expected;

    it("has multi-byte characters to split (’ “ ”)", () => {
      expect(inner.length).toBeGreaterThanOrEqual(3);
    });

    it.each(["node", "fetch"] as const)(
      "decodes characters split mid-sequence (%s transport)",
      async (transport) => {
        // Split inside every multi-byte character, after the lead byte and before the last byte, and pause
        // between writes so each piece arrives on its own.
        const splits = [...new Set(inner.flatMap((at) => [at, at + 1]))].sort((a, b) => a - b);
        const { response, parts } = await run({ body, splitAt: splits, writeDelayMs: 5 }, transport);
        expect(comparable(response)).toEqual(expected);
        expect(parts).toContainEqual({ type: "text_delta", delta: "’ll" });
        expect(response.text).not.toContain("\uFFFD");
        const output = response.providerData?.openaiResponses as
          | { output: Array<{ type: string }> }
          | undefined;
        expect(output?.output.map((item) => item.type)).toEqual(["reasoning", "message", "function_call"]);
      },
    );
  });
});
