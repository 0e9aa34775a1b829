import { afterEach, describe, expect, it } from "vitest";
import type { JsonSchema, ModelRequest } from "../../models/model.js";
import { createOpenAI } from "../openai/create-openai.js";
import {
  type FixtureServer,
  type ScriptedResponse,
  startFixtureServer,
} from "../openai/test-utils/fixture-server.js";
import { randomSplits } from "../openai/test-utils/fixtures.js";
import { foldParts, readParts, streamContractViolation } from "../openai/test-utils/stream-parts.js";
import {
  completedResponse,
  fixtureEvents,
  readResponsesFixture,
  responsesStreamBody,
} from "./test-utils/responses-fixtures.js";

/**
 * Native structured output through the Responses `text.format`, against the recorded stream: the format we
 * send (compared with the recorded request) and the answer text that parses to the recorded JSON.
 */

const NAME = "stream-structured-output.sse";
const recorded = JSON.parse(
  readResponsesFixture("stream-structured-output.request.json").toString("utf8"),
) as {
  text: { format: { type: string; name: string; schema: JsonSchema } };
};
const recordedFormat = recorded.text.format;
const BARKLEY = {
  name: "Barkley",
  age: 5,
  bio: "Barkley is a playful and friendly Golden Retriever mix with a love for adventure. He enjoys playing fetch at the park, splashing in lakes, and cuddling on the couch after a long day of exploring. With a fluffy coat and a wagging tail, Barkley brings joy to everyone he meets.",
};
const REFUSAL = "I'm sorry, I can't help with that.";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: ScriptedResponse) {
  server = await startFixtureServer(script);
  return createOpenAI({ baseURL: server.baseURL, apiKey: "sk-test" }).responses("gpt-4o-mini");
}

function sentBody(): Record<string, unknown> {
  const body = server?.requests[0]?.body;
  if (body === undefined) throw new Error("no request was recorded");
  return body as Record<string, unknown>;
}

const request: ModelRequest = {
  messages: [{ role: "user", content: "invent a dog" }],
  output: { name: recordedFormat.name, schema: recordedFormat.schema },
};

describe("OpenAI Responses: native structured output (stream-structured-output.sse)", () => {
  const body = responsesStreamBody(NAME);

  it.each([0, 1, 2, 3])(
    "sends text.format as recorded, and the answer (chunked, seed %i) parses to the recorded JSON",
    async (seed) => {
      const model = await serve({ body, splitAt: seed === 0 ? [] : randomSplits(body.length, seed, 40) });
      const parts = await readParts(model.stream(request));
      expect(streamContractViolation(parts)).toBeUndefined();
      const response = foldParts(parts);
      expect(JSON.parse(response.text)).toEqual(BARKLEY);
      expect(parts.filter((part) => part.type === "text_delta")).toHaveLength(76);
      expect(response.finishReason.unified).toBe("stop");
      // The recorded request sent no `strict`; the server echoed `strict: true` (the schema is already strict).
      expect(sentBody().text).toEqual({ format: { ...recordedFormat, strict: true } });
      expect(sentBody().input).toEqual([{ role: "user", content: "invent a dog" }]);
    },
  );

  it("merges the format into a text object given in the options, and lets a given text.format win", async () => {
    const model = await serve({ body });
    await readParts(model.stream({ ...request, providerOptions: { text: { verbosity: "low" } } }));
    expect(sentBody().text).toEqual({ verbosity: "low", format: { ...recordedFormat, strict: true } });
    await server?.close();
    const again = await serve({ body });
    const given = { format: { type: "json_object" } };
    await readParts(again.stream({ ...request, providerOptions: { text: given } }));
    expect(sentBody().text).toEqual(given);
  });

  it("sends a description and strict: false for a schema outside the strict subset", async () => {
    const model = await serve({ body });
    const loose = { type: "object", properties: { name: { type: "string", maxLength: 20 } } };
    await readParts(
      model.stream({ ...request, output: { name: "dog", description: "A dog.", schema: loose } }),
    );
    expect(sentBody().text).toEqual({
      format: { type: "json_schema", name: "dog", schema: loose, strict: false, description: "A dog." },
    });
  });
});

/** The recorded stream with its text deltas replaced by refusal deltas (and the output item by a refusal part). */
function refusalStream(): string {
  const events = fixtureEvents(NAME).filter((event) => event.type !== "response.output_text.delta");
  const at = events.findIndex((event) => event.type === "response.content_part.added") + 1;
  const deltas = ["I'm sorry, ", "I can't help with that."].map((delta) => ({
    type: "response.refusal.delta",
    delta,
  }));
  events.splice(at, 0, ...deltas);
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join("");
}

/** The recorded final response with its message content replaced by a refusal part. */
function refusalResponse(): string {
  const response = completedResponse(NAME) as { output: Array<{ content?: unknown }> };
  const message = response.output[0];
  if (message === undefined) throw new Error("no output item");
  message.content = [{ type: "refusal", refusal: REFUSAL }];
  return JSON.stringify(response);
}

describe("OpenAI Responses: refusals (derived from the recorded structured-output answer)", () => {
  it("streams response.refusal.delta into ModelResponse.refusal", async () => {
    const body = refusalStream();
    const model = await serve({ body, splitAt: randomSplits(body.length, 5, 30) });
    const parts = await readParts(model.stream(request));
    expect(streamContractViolation(parts)).toBeUndefined();
    const response = foldParts(parts);
    expect(response.refusal).toBe(REFUSAL);
    expect(response.text).toBe("");
  });

  it("reads a refusal content part of a non-streamed answer into ModelResponse.refusal", async () => {
    const model = await serve({ body: refusalResponse(), contentType: "application/json" });
    const response = await model.generate(request);
    expect(response.refusal).toBe(REFUSAL);
    expect(response.text).toBe("");
    expect(sentBody().text).toEqual({ format: { ...recordedFormat, strict: true } });
  });
});
