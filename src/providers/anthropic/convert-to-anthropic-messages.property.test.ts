import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AssistantMessage, Message } from "../../models/message.js";
import { richHistoryArbitrary } from "../openai/test-utils/stream-arbitraries.js";
import type { AnthropicWireBlock, AnthropicWireMessage } from "./anthropic-wire-types.js";
import { assistantBlocks, convertToAnthropicMessages } from "./convert-to-anthropic-messages.js";
import { parseAnthropicMessage } from "./parse-anthropic-message.js";

// Random valid histories (random tool names, JSON arguments in any style, invalid arguments, error results,
// empty texts, system messages anywhere) converted to the Messages API.

const url = "http://test/v1/messages";

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** What the model sees, in order: texts, tool uses and tool results, each with its role. */
type Item = { role: "user" | "assistant" } & AnthropicWireBlock;

function neutralItems(history: readonly Message[]): Item[] {
  const items: Item[] = [];
  for (const message of history) {
    if (message.role === "user" && message.content !== "") {
      items.push({ role: "user", type: "text", text: message.content });
    } else if (message.role === "assistant") {
      if (message.content !== "") items.push({ role: "assistant", type: "text", text: message.content });
      for (const call of message.toolCalls ?? []) {
        const input = isPlainObject(call.arguments) ? call.arguments : {};
        items.push({ role: "assistant", type: "tool_use", id: call.id, name: call.name, input });
      }
    } else if (message.role === "tool") {
      items.push({
        role: "user",
        type: "tool_result",
        tool_use_id: message.toolCallId,
        content: message.content,
        ...(message.isError === true && { is_error: true }),
      });
    }
  }
  return items;
}

function blocksOf(message: AnthropicWireMessage): AnthropicWireBlock[] {
  if (typeof message.content !== "string") return message.content;
  return message.content === "" ? [] : [{ type: "text", text: message.content }];
}

function wireItems(wire: readonly AnthropicWireMessage[]): Item[] {
  return wire.flatMap((message) => blocksOf(message).map((block) => ({ role: message.role, ...block })));
}

const ids = (blocks: readonly AnthropicWireBlock[], type: string, key: string) =>
  blocks.filter((b) => b.type === type).map((b) => String(b[key]));

describe("convertToAnthropicMessages properties (random valid histories)", () => {
  it("loses nothing: every text, tool use and tool result is sent once, in order, with its role", () => {
    fc.assert(
      fc.property(richHistoryArbitrary, (history) => {
        const { system, messages } = convertToAnthropicMessages(history);
        expect(wireItems(messages)).toEqual(neutralItems(history));
        const systems = history.filter((m) => m.role === "system" && m.content !== "").map((m) => m.content);
        expect(system).toBe(systems.length > 0 ? systems.join("\n\n") : undefined);
      }),
      { numRuns: 150 },
    );
  });

  it("alternates roles starting with user, answers each tool use in the next user message (results first), never sends empty content", () => {
    let merged = 0;
    fc.assert(
      fc.property(richHistoryArbitrary, (history) => {
        const { messages } = convertToAnthropicMessages(history);
        expect(messages[0]?.role).toBe("user");
        for (let i = 1; i < messages.length; i++) expect(messages[i]!.role).not.toBe(messages[i - 1]!.role);
        messages.forEach((message, i) => {
          const blocks = blocksOf(message);
          for (const block of blocks) if (block.type === "text") expect(block.text).not.toBe("");
          const uses = ids(blocks, "tool_use", "id");
          if (uses.length > 0) {
            // All the results of one assistant turn in ONE user message, right after it.
            const next = messages[i + 1];
            expect(next?.role).toBe("user");
            const nextBlocks = next === undefined ? [] : blocksOf(next);
            expect(ids(nextBlocks, "tool_result", "tool_use_id").sort()).toEqual([...uses].sort());
            const firstOther = nextBlocks.findIndex((b) => b.type !== "tool_result");
            if (firstOther !== -1)
              expect(nextBlocks.slice(firstOther).every((b) => b.type !== "tool_result")).toBe(true);
            if (uses.length > 1) merged++;
          }
          const results = ids(blocks, "tool_result", "tool_use_id");
          if (results.length > 0) {
            const previous = messages[i - 1];
            expect(ids(previous === undefined ? [] : blocksOf(previous), "tool_use", "id")).toEqual(
              expect.arrayContaining(results),
            );
          }
        });
        // Empty content is rejected by the API; only an empty user text of the history itself can produce it.
        if (history.every((m) => m.role !== "user" || m.content !== "")) {
          for (const message of messages) expect(blocksOf(message).length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 150 },
    );
    expect(merged).toBeGreaterThan(10);
  });

  it("round trip: an assistant message's blocks, read back as a response, give the same text and calls", () => {
    const assistants = richHistoryArbitrary
      .map((history) => history.filter((m): m is AssistantMessage => m.role === "assistant"))
      .filter((messages) => messages.length > 0);
    fc.assert(
      fc.property(assistants, (messages) => {
        for (const message of messages) {
          const content = assistantBlocks(message);
          const body = JSON.stringify({
            type: "message",
            role: "assistant",
            content,
            stop_reason: "tool_use",
          });
          const parsed = parseAnthropicMessage(body, url);
          expect(parsed.text).toBe(message.content);
          expect(parsed.toolCalls.map((c) => [c.id, c.name, c.arguments])).toEqual(
            (message.toolCalls ?? []).map((c) => [
              c.id,
              c.name,
              isPlainObject(c.arguments) ? c.arguments : {},
            ]),
          );
          for (const call of parsed.toolCalls) expect(JSON.parse(call.rawArguments)).toEqual(call.arguments);
        }
      }),
      { numRuns: 100 },
    );
  });
});
