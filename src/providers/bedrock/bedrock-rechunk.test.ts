import { afterEach, describe, expect, it } from "vitest";
import type { ModelRequest, ModelResponse } from "../../models/model.js";
import {
  type FixtureServer,
  type ScriptedResponse,
  startFixtureServer,
} from "../openai/test-utils/fixture-server.js";
import { randomSplits, utf8InnerOffsets } from "../openai/test-utils/fixtures.js";
import { foldParts, readParts, streamContractViolation } from "../openai/test-utils/stream-parts.js";
import { signatureProblem, testBedrockModel } from "./test-utils/bedrock-test-model.js";
import { converseFrames } from "./test-utils/converse-answer.js";
import { STREAM_EXPECTED } from "./test-utils/expected-results.js";
import { streamBody } from "./test-utils/fixtures.js";

// The recorded event streams served in pieces split at random byte boundaries (inside preludes, headers,
// payloads and CRCs), through both transports: every split folds to the same hand-checked answer.

const request: ModelRequest = { messages: [{ role: "user", content: "hi" }] };
const EVENT_STREAM = "application/vnd.amazon.eventstream";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function runStream(script: ScriptedResponse, transport: "node" | "fetch"): Promise<ModelResponse> {
  server = await startFixtureServer({ contentType: EVENT_STREAM, ...script });
  const model = testBedrockModel(server.baseURL, transport === "fetch" ? { fetch: globalThis.fetch } : {});
  const parts = await readParts(model.stream(request));
  expect(streamContractViolation(parts)).toBeUndefined();
  expect(signatureProblem(server.requests[0])).toBeUndefined();
  await server.close();
  server = undefined;
  const { raw: _raw, ...rest } = foldParts(parts);
  return rest;
}

describe("Bedrock event streams re-chunked at arbitrary byte boundaries", () => {
  describe.each(Object.entries(STREAM_EXPECTED))("%s", (name, expected) => {
    const body = streamBody(name);

    it.each([1, 2, 3])("random chunks of 1 to 40 bytes (seed %i), node:http and fetch", async (seed) => {
      const splitAt = randomSplits(body.length, seed, 40);
      expect(await runStream({ body, splitAt }, "node")).toEqual(expected);
      expect(await runStream({ body, splitAt }, "fetch")).toEqual(expected);
    });

    it("frames split right after their prelude and inside their CRCs", async () => {
      const cuts: number[] = [];
      for (let at = 0; at < body.length; at += body.readUInt32BE(at)) {
        const total = body.readUInt32BE(at);
        cuts.push(at + 5, at + 12, at + total - 2);
      }
      expect(await runStream({ body, splitAt: cuts }, "node")).toEqual(expected);
    });
  });

  it("one byte per write folds to the same answer", async () => {
    const name = "converse-stream-empty-text-delta.eventstream";
    const body = streamBody(name);
    const splitAt = Array.from({ length: body.length - 1 }, (_, i) => i + 1);
    expect(await runStream({ body, splitAt }, "node")).toEqual(STREAM_EXPECTED[name]);
  });

  it("multi-byte UTF-8 text split inside its characters survives both transports", async () => {
    const text = "héllo wörld ✓ — 日本語 🙂";
    const body = Buffer.concat(converseFrames({ text }).map((frame) => frame.bytes));
    const splitAt = [...new Set(utf8InnerOffsets(body).flatMap((at) => [at, at + 1]))].sort((a, b) => a - b);
    for (const transport of ["node", "fetch"] as const) {
      const response = await runStream({ body, splitAt }, transport);
      expect(response.text).toBe(text);
    }
  });
});
