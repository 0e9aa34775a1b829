import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "../../models/message.js";
import { convertToOpenAIMessages, openAIMessageJson } from "./convert-to-openai-messages.js";
import type { OpenAIWireMessage } from "./openai-wire-types.js";
import { parseOpenAIChatCompletion } from "./parse-openai-chat-completion.js";
import { richHistoryArbitrary } from "./test-utils/stream-arbitraries.js";

// Random valid histories (random tool names, JSON arguments in any style, invalid arguments, error results,
// empty texts, system messages anywhere) converted to Chat Completions messages.

const url = "http://test/v1/chat/completions";

/** The wire message is an assistant message with tool calls. */
function callsOf(message: OpenAIWireMessage | undefined) {
  return message?.role === "assistant" ? (message.tool_calls ?? []) : [];
}

describe("convertToOpenAIMessages properties (random valid histories)", () => {
  it("keeps every message, in order, with its role and text; tool arguments are sent exactly as written", () => {
    fc.assert(
      fc.property(richHistoryArbitrary, (history) => {
        const wire = convertToOpenAIMessages(history);
        expect(wire.length).toBe(history.length);
        history.forEach((message, i) => {
          const sent = wire[i]!;
          expect(sent.role).toBe(message.role);
          switch (message.role) {
            case "system":
            case "user":
              expect(sent).toEqual({ role: message.role, content: message.content });
              break;
            case "tool":
              expect(sent).toEqual({
                role: "tool",
                tool_call_id: message.toolCallId,
                content: message.content,
              });
              break;
            case "assistant": {
              const calls = message.toolCalls ?? [];
              const wireCalls = callsOf(sent);
              expect(sent.content).toBe(calls.length > 0 && message.content === "" ? null : message.content);
              expect(wireCalls.map((c) => [c.id, c.type, c.function.name, c.function.arguments])).toEqual(
                calls.map((c) => [c.id, "function", c.name, c.rawArguments]),
              );
              // Arguments survive the JSON round trip: the text sent parses to the call's arguments.
              for (const [k, call] of calls.entries()) {
                if (call.parseError === undefined) {
                  expect(JSON.parse(wireCalls[k]!.function.arguments)).toEqual(call.arguments);
                }
              }
              break;
            }
          }
          // The per-message JSON cache serialises the same message.
          expect(JSON.parse(openAIMessageJson(message))).toEqual(JSON.parse(JSON.stringify(sent)));
        });
      }),
      { numRuns: 150 },
    );
  });

  it("answers every tool call exactly once, in the tool messages right after its assistant message", () => {
    fc.assert(
      fc.property(richHistoryArbitrary, (history) => {
        const wire = convertToOpenAIMessages(history);
        const answered = new Set<string>();
        for (let i = 0; i < wire.length; i++) {
          const message = wire[i]!;
          if (message.role === "tool") {
            // A tool message answers a call of the nearest assistant message before it, once.
            let j = i - 1;
            while (j >= 0 && wire[j]!.role === "tool") j--;
            expect(callsOf(wire[j]).map((c) => c.id)).toContain(message.tool_call_id);
            expect(answered.has(message.tool_call_id)).toBe(false);
            answered.add(message.tool_call_id);
          }
          const ids = callsOf(message).map((c) => c.id);
          if (ids.length === 0) continue;
          const following: string[] = [];
          for (let j = i + 1; j < wire.length; j++) {
            const next = wire[j]!;
            if (next.role !== "tool") break;
            following.push(next.tool_call_id);
          }
          expect([...following].sort()).toEqual([...ids].sort());
        }
      }),
      { numRuns: 150 },
    );
  });

  it("round trip: an assistant message on the wire, read back as a completion, is the same text and calls", () => {
    const assistants = richHistoryArbitrary
      .map((history) =>
        history.filter((m): m is Extract<Message, { role: "assistant" }> => m.role === "assistant"),
      )
      .filter((messages) => messages.length > 0);
    fc.assert(
      fc.property(assistants, (messages) => {
        for (const message of messages) {
          const [wire] = convertToOpenAIMessages([message]);
          const body = JSON.stringify({ choices: [{ index: 0, message: wire, finish_reason: "stop" }] });
          const parsed = parseOpenAIChatCompletion(body, url);
          expect(parsed.text).toBe(message.content);
          expect(parsed.toolCalls).toEqual(message.toolCalls ?? []);
        }
      }),
      { numRuns: 100 },
    );
  });
});
