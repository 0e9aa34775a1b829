import { describe, expect, it } from "vitest";
import type { Message, ToolMessage } from "../../models/message.js";
import { convertToOpenAIMessages, openAIMessagesJson } from "./convert-to-openai-messages.js";

// Chat Completions tool messages hold text only: a tool result's images travel in ONE user message after the
// run of tool messages, or open the user message that follows.

const PNG = "iVBORw0KGgo=";
const image = (data: string) => ({ type: "image" as const, data, mediaType: "image/png" });
const pngUrl = (data: string) => ({ type: "image_url", image_url: { url: `data:image/png;base64,${data}` } });
const label = (id: string, name: string) => ({
  type: "text",
  text: `Attachments of the result of tool call ${id} (${name}):`,
});

const ask: Message = { role: "user", content: "Look at the screen." };
const calls: Message = {
  role: "assistant",
  content: "",
  toolCalls: [
    { id: "call_a", name: "screenshot", arguments: {}, rawArguments: "{}" },
    { id: "call_b", name: "clock", arguments: {}, rawArguments: "{}" },
    { id: "call_c", name: "screenshot", arguments: {}, rawArguments: "{}" },
  ],
};
const shotA: ToolMessage = {
  role: "tool",
  toolCallId: "call_a",
  toolName: "screenshot",
  content: [{ type: "text", text: "first" }, image("QUFB")],
};
const clock: ToolMessage = { role: "tool", toolCallId: "call_b", toolName: "clock", content: "12:00" };
const shotC: ToolMessage = {
  role: "tool",
  toolCallId: "call_c",
  toolName: "screenshot",
  content: [image("Q0ND")],
};
const toolMessages = [
  { role: "tool", tool_call_id: "call_a", content: "first\n[1 attachment follows in the next user message]" },
  { role: "tool", tool_call_id: "call_b", content: "12:00" },
  { role: "tool", tool_call_id: "call_c", content: "[1 attachment follows in the next user message]" },
];
const attachments = [
  label("call_a", "screenshot"),
  pngUrl("QUFB"),
  label("call_c", "screenshot"),
  pngUrl("Q0ND"),
];

function both(history: Message[]): unknown[] {
  const wire = convertToOpenAIMessages(history);
  // The JSON the request body splices in is the same history.
  expect(JSON.parse(`[${openAIMessagesJson(history)}]`)).toEqual(JSON.parse(JSON.stringify(wire)));
  return wire;
}

describe("tool-result attachments on Chat Completions", () => {
  it("puts the attachments of a run of tool results in ONE user message after the run (end of history)", () => {
    const wire = both([ask, calls, shotA, clock, shotC]);
    expect(wire.slice(2)).toEqual([...toolMessages, { role: "user", content: attachments }]);
  });

  it("opens the following user message with them instead of adding a second user message", () => {
    const next: Message = {
      role: "user",
      content: [{ type: "text", text: "And now?" }, image(PNG)],
    };
    const wire = both([ask, calls, shotA, clock, shotC, next]);
    expect(wire.slice(2)).toEqual([
      ...toolMessages,
      { role: "user", content: [...attachments, { type: "text", text: "And now?" }, pngUrl(PNG)] },
    ]);
    const textNext: Message = { role: "user", content: "And now?" };
    expect(both([ask, calls, shotA, clock, shotC, textNext]).at(-1)).toEqual({
      role: "user",
      content: [...attachments, { type: "text", text: "And now?" }],
    });
    // No two user messages in a row anywhere.
    const roles = (wire as { role: string }[]).map((m) => m.role);
    expect(roles.some((role, i) => role === "user" && roles[i - 1] === "user")).toBe(false);
  });

  it("places them before the next assistant message when the model answered after the tools", () => {
    const answer: Message = { role: "assistant", content: "Two screenshots." };
    const wire = both([ask, calls, shotA, clock, shotC, answer, { role: "user", content: "ok" }]);
    expect(wire.slice(2)).toEqual([
      ...toolMessages,
      { role: "user", content: attachments },
      { role: "assistant", content: "Two screenshots." },
      { role: "user", content: "ok" },
    ]);
  });

  it("converts a history without attachments message for message", () => {
    const plain: Message[] = [ask, calls, { ...shotA, content: "first" }, clock, { ...shotC, content: "x" }];
    const wire = both(plain);
    expect(wire).toHaveLength(plain.length);
    expect(wire.map((m) => (m as { role: string }).role)).toEqual(plain.map((m) => m.role));
  });

  it("an empty user message after the run adds no empty text part", () => {
    expect(both([ask, calls, shotA, clock, shotC, { role: "user", content: "" }]).at(-1)).toEqual({
      role: "user",
      content: attachments,
    });
  });
});
