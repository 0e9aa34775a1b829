import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bodyOf,
  callsArbitrary,
  cut,
  cutsArbitrary,
  deliver,
  deliveryArbitrary,
  textArbitrary,
} from "../openai/test-utils/stream-arbitraries.js";
import { foldParts, readParts, streamContractViolation } from "../openai/test-utils/stream-parts.js";
import { readAnthropicStream } from "./read-anthropic-stream.js";

// Random tool calls streamed as Messages API `tool_use` blocks — `input_json_delta` fragments cut anywhere
// (empty ones included), text blocks between them, `event:` lines and pings — then the SSE body cut anywhere:
// the reader must hand back exactly the original calls.

const url = "http://test/v1/messages";

const scenarioArbitrary = fc.record({
  calls: callsArbitrary(4),
  argumentCuts: fc.array(cutsArbitrary(10), { minLength: 4, maxLength: 4 }),
  /** Text before each tool_use block (a text block when non-empty). */
  texts: fc.array(textArbitrary(15), { minLength: 5, maxLength: 5 }),
  textCuts: cutsArbitrary(4),
  /** Keep the empty `input_json_delta` fragments (the API sends one first) or drop them. */
  keepEmptyFragments: fc.boolean(),
  pings: fc.boolean(),
  delivery: deliveryArbitrary,
});

type Scenario = typeof scenarioArbitrary extends fc.Arbitrary<infer T> ? T : never;

function streamText(scenario: Scenario): string {
  const events: Record<string, unknown>[] = [
    {
      type: "message_start",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude-test",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    },
  ];
  let index = 0;
  const textBlock = (text: string) => {
    if (text === "") return;
    events.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
    for (const piece of cut(text, scenario.textCuts)) {
      events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } });
    }
    events.push({ type: "content_block_stop", index });
    index++;
  };
  scenario.calls.forEach((call, i) => {
    textBlock(scenario.texts[i]!);
    events.push({
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
    });
    if (scenario.pings) events.push({ type: "ping" });
    const pieces = ["", ...cut(call.raw, scenario.argumentCuts[i]!)].filter(
      (piece) => scenario.keepEmptyFragments || piece !== "",
    );
    for (const partial_json of pieces) {
      events.push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } });
    }
    events.push({ type: "content_block_stop", index });
    index++;
  });
  textBlock(scenario.texts[scenario.calls.length]!);
  events.push(
    {
      type: "message_delta",
      delta: { stop_reason: "tool_use", stop_sequence: null },
      usage: { output_tokens: 42 },
    },
    { type: "message_stop" },
  );
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join("");
}

describe("readAnthropicStream properties (random tool calls, random input_json_delta fragments, random chunking)", () => {
  it("reassembles exactly the original calls and text, whatever the fragment and chunk boundaries", async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary, async (scenario) => {
        const text = streamText(scenario);
        const whole = await readParts(readAnthropicStream(bodyOf([text]), url));
        const parts = await readParts(readAnthropicStream(deliver(text, scenario.delivery), url));
        expect(parts).toEqual(whole);
        expect(streamContractViolation(parts)).toBeUndefined();
        const response = foldParts(parts);
        expect(response.toolCalls).toEqual(
          scenario.calls.map((call) => ({
            id: call.id,
            name: call.name,
            arguments: call.args,
            rawArguments: call.raw,
          })),
        );
        for (const call of response.toolCalls) expect(call.parseError).toBeUndefined();
        expect(response.text).toBe(scenario.texts.slice(0, scenario.calls.length + 1).join(""));
        expect(response.finishReason.unified).toBe("tool_calls");
        expect(response.usage.outputTokens).toBe(42);
      }),
      { numRuns: 100 },
    );
    // 100 random scenarios with random chunking: past the default 20 s on 2 cores under load (22 s alone at a load
    // average of 10, 33 s for the code before #22's lazy providers at the same time), as the OpenAI Chat one.
  }, 90_000);
});
