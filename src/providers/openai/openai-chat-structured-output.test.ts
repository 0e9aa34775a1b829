import { afterEach, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import type { Message } from "../../models/message.js";
import type { JsonSchema, ModelRequest, OutputFormat } from "../../models/model.js";
import { createOpenAI } from "./create-openai.js";
import {
  type FixtureServer,
  type ScriptedResponse,
  startFixtureServer,
} from "./test-utils/fixture-server.js";
import { randomSplits, readFixture, streamBody } from "./test-utils/fixtures.js";
import { foldParts, readParts, streamContractViolation } from "./test-utils/stream-parts.js";

/**
 * Native structured output through Chat Completions `response_format`, against recorded answers: the body we
 * send (compared with the recorded request where there is one), and the answer text that parses to the
 * recorded JSON.
 */

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: ScriptedResponse, options: { structuredOutput?: boolean } = {}) {
  server = await startFixtureServer(script);
  return createOpenAI({ baseURL: server.baseURL, apiKey: "sk-test", ...options })("gpt-4o");
}

function sentBody(): Record<string, unknown> {
  const body = server?.requests[0]?.body;
  if (body === undefined) throw new Error("no request was recorded");
  return body as Record<string, unknown>;
}

/** The schema pydantic writes for the openai-python test's `Location` model (the stream's request is not recorded). */
const location: OutputFormat = {
  name: "Location",
  schema: {
    type: "object",
    title: "Location",
    properties: {
      city: { title: "City", type: "string" },
      temperature: { title: "Temperature", type: "number" },
      units: { title: "Units", type: "string", enum: ["c", "f"] },
    },
    required: ["city", "temperature", "units"],
  },
};

describe("OpenAI Chat: native structured output (stream-structured-output.sse)", () => {
  const body = streamBody("stream-structured-output.sse");
  const request: ModelRequest = { messages: [{ role: "user", content: "weather in SF?" }], output: location };

  it.each([0, 1, 2, 3])(
    "sends response_format, and the answer (chunked, seed %i) parses to the recorded JSON",
    async (seed) => {
      const splitAt = seed === 0 ? [] : randomSplits(body.length, seed, 40);
      const model = await serve({ body, splitAt });
      const parts = await readParts(model.stream(request));
      expect(streamContractViolation(parts)).toBeUndefined();
      const response = foldParts(parts);
      expect(JSON.parse(response.text)).toEqual({ city: "San Francisco", temperature: 61, units: "f" });
      expect(parts.filter((part) => part.type === "text_delta").length).toBeGreaterThan(10);
      expect(response.finishReason).toEqual({ unified: "stop", raw: "stop" });
      expect(sentBody().response_format).toEqual({
        type: "json_schema",
        json_schema: {
          name: "Location",
          schema: { ...location.schema, additionalProperties: false },
          strict: true,
        },
      });
    },
  );
});

describe("OpenAI Chat: native structured output beside tools (nonstream-structured-output.json)", () => {
  const recorded = JSON.parse(readFixture("nonstream-structured-output.request.json").toString("utf8")) as {
    response_format: { type: string; json_schema: { name: string; schema: JsonSchema; strict: boolean } };
    tools: Array<{ function: { name: string; description: string; parameters: JsonSchema } }>;
    tool_choice: string;
  };
  const recordedFormat = recorded.response_format;
  const tool = recorded.tools[0]?.function;
  if (tool === undefined) throw new Error("the recorded request has no tool");
  const messages: Message[] = [
    { role: "user", content: "What is the largest city in the user country?" },
    {
      role: "assistant",
      content: "",
      toolCalls: [
        { id: "call_PkRGedQNRFUzJp2R7dO7avWR", name: tool.name, arguments: {}, rawArguments: "{}" },
      ],
    },
    { role: "tool", toolCallId: "call_PkRGedQNRFUzJp2R7dO7avWR", toolName: tool.name, content: "Mexico" },
  ];
  const request: ModelRequest = {
    messages,
    tools: [tool],
    toolChoice: "auto",
    output: { name: recordedFormat.json_schema.name, schema: recordedFormat.json_schema.schema },
  };

  it("sends the recorded response_format with the schema in strict form, and parses the recorded answer", async () => {
    const model = await serve({
      body: readFixture("nonstream-structured-output.json"),
      contentType: "application/json",
    });
    const response = await model.generate(request);
    expect(JSON.parse(response.text)).toEqual({ city: "Mexico City", country: "Mexico" });
    expect(response.finishReason).toEqual({ unified: "stop", raw: "stop" });
    expect(response.refusal).toBeUndefined();
    const sent = sentBody();
    // pydantic-ai sent this schema non-strict; it is already in the strict subset once closed, so we send strict.
    expect(sent.response_format).toEqual({
      type: recordedFormat.type,
      json_schema: {
        name: recordedFormat.json_schema.name,
        schema: { ...recordedFormat.json_schema.schema, additionalProperties: false },
        strict: true,
      },
    });
    expect(sent.tool_choice).toBe(recorded.tool_choice);
    expect(sent.tools).toEqual(recorded.tools);
  });

  it("sends a schema outside the strict subset as given, with strict: false (the recorded form)", async () => {
    const model = await serve({
      body: readFixture("nonstream-structured-output.json"),
      contentType: "application/json",
    });
    const schema = recordedFormat.json_schema.schema;
    const loose = {
      ...schema,
      properties: { ...(schema.properties as object), city: { type: "string", minLength: 1 } },
    };
    await model.generate({ ...request, output: { name: "result", schema: loose } });
    expect(sentBody().response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "result", schema: loose, strict: false },
    });
    const sent = sentBody().response_format as typeof recordedFormat;
    expect(Object.keys(sent.json_schema).sort()).toEqual(Object.keys(recordedFormat.json_schema).sort());
    expect(sent.json_schema.strict).toBe(recordedFormat.json_schema.strict);
  });
});

describe("OpenAI Chat: refusals", () => {
  const request: ModelRequest = { messages: [{ role: "user", content: "…" }], output: location };

  it("streams delta.refusal into ModelResponse.refusal (stream-refusal.sse, re-chunked)", async () => {
    const body = streamBody("stream-refusal.sse");
    const model = await serve({ body, splitAt: randomSplits(body.length, 7, 30) });
    const parts = await readParts(model.stream(request));
    const response = foldParts(parts);
    expect(response.refusal).toBe("I'm sorry, I can't assist with that request.");
    expect(response.text).toBe("");
    expect(parts.some((part) => part.type === "refusal_delta")).toBe(true);
  });

  it("reads message.refusal of a non-streamed answer (the recorded answer with its content turned into a refusal)", async () => {
    const answer = JSON.parse(readFixture("nonstream-structured-output.json").toString("utf8"));
    answer.choices[0].message.content = null;
    answer.choices[0].message.refusal = "I'm sorry, I can't assist with that request.";
    const model = await serve({ body: JSON.stringify(answer), contentType: "application/json" });
    const response = await model.generate(request);
    expect(response.refusal).toBe("I'm sorry, I can't assist with that request.");
    expect(response.text).toBe("");
  });
});

describe("OpenAI Chat: structured-output options", () => {
  const body = readFixture("nonstream-structured-output.json");
  const messages: Message[] = [{ role: "user", content: "hi" }];

  it("reports the capability, on by default and off with createOpenAI({ structuredOutput: false })", () => {
    const openai = createOpenAI({ apiKey: "sk-test" });
    expect(openai("gpt-4o").capabilities).toEqual({ structuredOutput: true });
    expect(openai.responses("gpt-5").capabilities).toEqual({ structuredOutput: true });
    const off = createOpenAI({ apiKey: "sk-test", structuredOutput: false });
    expect(off("llama3").capabilities).toEqual({ structuredOutput: false });
    expect(off.responses("llama3").capabilities).toEqual({ structuredOutput: false });
    expect(() => createOpenAI({ structuredOutput: "yes" as unknown as boolean })).toThrow(
      InvalidArgumentError,
    );
  });

  it("sends a description, makes the name acceptable to OpenAI, and sends no response_format without output", async () => {
    const model = await serve({ body, contentType: "application/json" });
    const output = { name: "final answer!", description: "The answer.", schema: location.schema };
    await model.generate({ messages, output });
    await model.generate({ messages });
    const [first, second] = server?.requests.map((r) => r.body as Record<string, unknown>) ?? [];
    const format = (first?.response_format as { json_schema: Record<string, unknown> } | undefined)
      ?.json_schema;
    expect(format?.name).toBe("final_answer_");
    expect(format?.description).toBe("The answer.");
    expect(second).not.toHaveProperty("response_format");
  });

  it("lets a response_format in providerOptions replace the converted one", async () => {
    const model = await serve({ body, contentType: "application/json" });
    const given = { type: "json_object" };
    await model.generate({ messages, output: location, providerOptions: { response_format: given } });
    expect(sentBody().response_format).toEqual(given);
  });
});
