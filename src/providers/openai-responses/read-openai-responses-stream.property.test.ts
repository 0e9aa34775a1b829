import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bodyOf,
  callsArbitrary,
  cut,
  cutsArbitrary,
  deliver,
  deliveryArbitrary,
  interleave,
  textArbitrary,
} from "../openai/test-utils/stream-arbitraries.js";
import { foldParts, readParts, streamContractViolation } from "../openai/test-utils/stream-parts.js";
import { readOpenAIResponsesStream } from "./read-openai-responses-stream.js";

// Random function calls streamed as Responses events — `function_call_arguments.delta` cut anywhere, parallel
// calls interleaved (matched by `item_id`, or by `output_index` alone), a text message first — then the SSE
// body cut anywhere: the reader must hand back exactly the original calls.

const url = "http://test/v1/responses";

const scenarioArbitrary = fc.record({
  calls: callsArbitrary(4),
  argumentCuts: fc.array(cutsArbitrary(10), { minLength: 4, maxLength: 4 }),
  interleaved: fc.boolean(),
  picks: fc.array(fc.nat(), { maxLength: 40 }),
  /** Deltas carry `item_id` + `output_index`, or only `output_index`. */
  deltaRef: fc.constantFrom("item-id" as const, "output-index" as const),
  text: textArbitrary(20),
  textCuts: cutsArbitrary(5),
  withEventLines: fc.boolean(),
  delivery: deliveryArbitrary,
});

type Scenario = typeof scenarioArbitrary extends fc.Arbitrary<infer T> ? T : never;

function streamText(scenario: Scenario): string {
  const events: Record<string, unknown>[] = [
    { type: "response.created", response: { id: "resp_1", status: "in_progress", output: [] } },
  ];
  const output: Record<string, unknown>[] = [];
  const hasText = scenario.text !== "";
  if (hasText) {
    const message = { type: "message", id: "msg_1", role: "assistant", status: "completed" };
    const done = { ...message, content: [{ type: "output_text", text: scenario.text, annotations: [] }] };
    events.push({ type: "response.output_item.added", output_index: 0, item: { ...message, content: [] } });
    for (const delta of cut(scenario.text, scenario.textCuts)) {
      events.push({
        type: "response.output_text.delta",
        item_id: "msg_1",
        output_index: 0,
        content_index: 0,
        delta,
      });
    }
    events.push({ type: "response.output_item.done", output_index: 0, item: done });
    output.push(done);
  }
  const first = hasText ? 1 : 0;
  const items = scenario.calls.map((call, i) => ({
    type: "function_call",
    id: `fc_${i}`,
    call_id: call.id,
    name: call.name,
    arguments: call.raw,
    status: "completed",
  }));
  items.forEach((item, i) => {
    events.push({
      type: "response.output_item.added",
      output_index: first + i,
      item: { ...item, arguments: "", status: "in_progress" },
    });
  });
  const deltas = scenario.calls.map((call, i) =>
    cut(call.raw, scenario.argumentCuts[i]!).map((delta) => ({
      type: "response.function_call_arguments.delta",
      ...(scenario.deltaRef === "item-id" && { item_id: `fc_${i}` }),
      output_index: first + i,
      delta,
    })),
  );
  events.push(...(scenario.interleaved ? interleave(deltas, scenario.picks) : deltas.flat()));
  items.forEach((item, i) => {
    events.push(
      {
        type: "response.function_call_arguments.done",
        item_id: item.id,
        output_index: first + i,
        arguments: item.arguments,
      },
      { type: "response.output_item.done", output_index: first + i, item },
    );
  });
  output.push(...items);
  events.push({
    type: "response.completed",
    response: {
      id: "resp_1",
      status: "completed",
      output,
      usage: { input_tokens: 10, output_tokens: 7, total_tokens: 17 },
    },
  });
  return events
    .map((event, n) => {
      const data = `data: ${JSON.stringify({ ...event, sequence_number: n })}\n\n`;
      return scenario.withEventLines ? `event: ${String(event.type)}\n${data}` : data;
    })
    .join("");
}

describe("readOpenAIResponsesStream properties (random function calls, random deltas, random chunking)", () => {
  it("reassembles exactly the original calls and text, whatever the delta and chunk boundaries", async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary, async (scenario) => {
        const text = streamText(scenario);
        const read = (body: AsyncIterable<string>) => readParts(readOpenAIResponsesStream({ body, url }));
        const whole = await read(bodyOf([text]));
        const parts = await read(deliver(text, scenario.delivery));
        expect(parts).toEqual(whole);
        expect(streamContractViolation(parts)).toBeUndefined();
        // Every argument byte came as a delta, none was filled in from the done item.
        for (const call of scenario.calls) {
          const streamed = parts
            .filter((part) => part.type === "tool_call_delta" && part.id === call.id)
            .map((part) => (part.type === "tool_call_delta" ? part.delta : ""));
          expect(streamed.join("")).toBe(call.raw);
        }
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
        expect(response.text).toBe(scenario.text);
        expect(response.finishReason.unified).toBe("tool_calls");
      }),
      { numRuns: 100 },
    );
  });
});
