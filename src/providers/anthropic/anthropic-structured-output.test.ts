import { afterEach, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import type { JsonSchema, ModelRequest } from "../../models/model.js";
import {
  type FixtureServer,
  type ScriptedResponse,
  startFixtureServer,
} from "../openai/test-utils/fixture-server.js";
import { randomSplits } from "../openai/test-utils/fixtures.js";
import { foldParts, readParts, streamContractViolation } from "../openai/test-utils/stream-parts.js";
import { createAnthropic } from "./create-anthropic.js";
import { readFixture, streamBody } from "./test-utils/fixtures.js";

/**
 * Native structured output through `output_config.format`, against the recorded stream: the format we send
 * (compared with the recorded request) and the answer text that parses to the recorded JSON.
 */

const recorded = JSON.parse(readFixture("stream-structured-output.request.json").toString("utf8")) as {
  output_config: { format: { type: string; schema: JsonSchema } };
};
/** The schema as pydantic writes it for the test's `Dog` model: without `additionalProperties`, which we add. */
const { additionalProperties: _closed, ...dogSchema } = recorded.output_config.format.schema;
const BISCUIT = {
  name: "Biscuit",
  age: 4,
  bio: "Biscuit is a golden retriever with a gentle soul and boundless enthusiasm. He greets every person with a wagging tail and has an uncanny ability to sense when someone needs comfort. His favorite activities include playing fetch at the beach, napping in sunny spots, and stealing socks to add to his secret collection under the bed.",
};
const request: ModelRequest = {
  messages: [{ role: "user", content: "Invent a good dog" }],
  output: { name: "Dog", schema: dogSchema },
};

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: ScriptedResponse) {
  server = await startFixtureServer(script);
  return createAnthropic({ baseURL: server.baseURL, apiKey: "test-key" })("claude-sonnet-4-5");
}

function sentBody(): Record<string, unknown> {
  const body = server?.requests[0]?.body;
  if (body === undefined) throw new Error("no request was recorded");
  return body as Record<string, unknown>;
}

describe("Anthropic: native structured output (stream-structured-output.sse)", () => {
  const body = streamBody("stream-structured-output.sse");

  it.each([0, 1, 2, 3])(
    "sends the recorded output_config, and the answer (chunked, seed %i) parses to the recorded JSON",
    async (seed) => {
      const model = await serve({ body, splitAt: seed === 0 ? [] : randomSplits(body.length, seed, 40) });
      const parts = await readParts(model.stream(request));
      expect(streamContractViolation(parts)).toBeUndefined();
      const response = foldParts(parts);
      expect(JSON.parse(response.text)).toEqual(BISCUIT);
      expect(response.finishReason).toEqual({ unified: "stop", raw: "end_turn" });
      expect(sentBody().output_config).toEqual(recorded.output_config);
    },
  );

  it("sends output_config beside tools, keeps other output_config fields, and lets a given format win", async () => {
    const model = await serve({ body });
    const tools = [
      { name: "lookup", description: "Look up.", parameters: { type: "object", properties: {} } },
    ];
    await readParts(
      model.stream({ ...request, tools, providerOptions: { output_config: { effort: "low" } } }),
    );
    expect(sentBody().output_config).toEqual({ effort: "low", format: recorded.output_config.format });
    expect(sentBody().tools).toHaveLength(1);
    await server?.close();
    const again = await serve({ body });
    const given = { format: { type: "json_schema", schema: { type: "object" } } };
    await readParts(again.stream({ ...request, providerOptions: { output_config: given } }));
    expect(sentBody().output_config).toEqual(given);
  });

  it("sends no output_config without output", async () => {
    const model = await serve({ body });
    await readParts(model.stream({ messages: request.messages }));
    expect(sentBody()).not.toHaveProperty("output_config");
  });

  it("reports the capability, on by default and off with createAnthropic({ structuredOutput: false })", () => {
    expect(createAnthropic({ apiKey: "k" })("claude-haiku-4-5").capabilities).toEqual({
      structuredOutput: true,
    });
    const off = createAnthropic({ apiKey: "k", structuredOutput: false });
    expect(off("claude-3-5-haiku-latest").capabilities).toEqual({ structuredOutput: false });
    expect(() => createAnthropic({ structuredOutput: 1 as unknown as boolean })).toThrow(
      InvalidArgumentError,
    );
  });
});

describe("Anthropic: refusals", () => {
  it('maps stop_reason "refusal" to finish reason content_filter (the recorded stream with its stop reason changed)', async () => {
    const body = streamBody("stream-structured-output.sse")
      .toString("utf8")
      .replace('"stop_reason":"end_turn"', '"stop_reason":"refusal"');
    expect(body).toContain('"stop_reason":"refusal"');
    const model = await serve({ body });
    const response = foldParts(await readParts(model.stream(request)));
    expect(response.finishReason).toEqual({ unified: "content_filter", raw: "refusal" });
  });
});
