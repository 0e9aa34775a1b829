import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "../../models/message.js";
import { richHistoryArbitrary } from "../openai/test-utils/stream-arbitraries.js";
import {
  convertToOpenAIResponsesInput,
  openAIResponsesItemsJson,
} from "./convert-to-openai-responses-input.js";
import type { OpenAIResponsesInputItem } from "./openai-responses-wire-types.js";
import { foldOpenAIResponsesOutput } from "./parse-openai-response.js";

// Random valid histories (random tool names, JSON arguments in any style, invalid arguments, error results,
// empty texts, system messages anywhere) converted to Responses `instructions` + `input`.

/** The items one message should become (no recorded provider data in these histories). */
function expectedItems(message: Message): OpenAIResponsesInputItem[] {
  switch (message.role) {
    case "system":
    case "user":
      return [{ role: message.role, content: String(message.content) }];
    case "assistant":
      return [
        ...(message.content === "" ? [] : [{ role: "assistant" as const, content: message.content }]),
        ...(message.toolCalls ?? []).map((call) => ({
          type: "function_call" as const,
          call_id: call.id,
          name: call.name,
          arguments: call.rawArguments,
        })),
      ];
    case "tool":
      return [{ type: "function_call_output", call_id: message.toolCallId, output: message.content }];
  }
}

const itemType = (item: OpenAIResponsesInputItem | undefined): string | undefined =>
  item !== undefined && "type" in item ? (item.type ?? undefined) : undefined;
const callId = (item: OpenAIResponsesInputItem): string => ("call_id" in item ? String(item.call_id) : "");

describe("convertToOpenAIResponsesInput properties (random valid histories)", () => {
  it("keeps every message in order: leading system messages as instructions, the rest as items", () => {
    fc.assert(
      fc.property(richHistoryArbitrary, (history) => {
        const { instructions, input } = convertToOpenAIResponsesInput(history);
        let leading = 0;
        while (history[leading]?.role === "system") leading++;
        expect(instructions).toBe(
          leading === 0
            ? undefined
            : history
                .slice(0, leading)
                .map((m) => m.content)
                .join("\n\n"),
        );
        const rest = history.slice(leading);
        expect(input).toEqual(rest.flatMap(expectedItems));
        // The per-message JSON cache serialises the same items.
        const json = `[${rest
          .map(openAIResponsesItemsJson)
          .filter((s) => s !== "")
          .join(",")}]`;
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(input)));
      }),
      { numRuns: 150 },
    );
  });

  it("answers every function call exactly once, after it and before the next turn; arguments survive the round trip", () => {
    fc.assert(
      fc.property(richHistoryArbitrary, (history) => {
        const { input } = convertToOpenAIResponsesInput(history);
        const calls = input.filter((item) => itemType(item) === "function_call");
        const outputs = input.filter((item) => itemType(item) === "function_call_output");
        expect(outputs.map(callId).sort()).toEqual(calls.map(callId).sort());
        expect(new Set(outputs.map(callId)).size).toBe(outputs.length);
        input.forEach((item, i) => {
          if (itemType(item) !== "function_call_output") return;
          // Between the call and its output: only calls and outputs of the same turn.
          const call = input.findIndex((c) => itemType(c) === "function_call" && callId(c) === callId(item));
          expect(call).toBeGreaterThanOrEqual(0);
          expect(call).toBeLessThan(i);
          for (const between of input.slice(call + 1, i)) {
            expect(["function_call", "function_call_output"]).toContain(itemType(between));
          }
        });
        // Read back as output items, the calls are the history's calls (arguments parsed alike).
        const folded = foldOpenAIResponsesOutput(calls as Parameters<typeof foldOpenAIResponsesOutput>[0]);
        const original = history.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []));
        expect(folded.toolCalls).toEqual(original);
      }),
      { numRuns: 150 },
    );
  });
});
