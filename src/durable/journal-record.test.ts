import { describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { JOURNAL_RECORD_VERSION, parseJournalRecord } from "./journal-record.js";
import { MemoryJournal } from "./memory-journal.js";

const parse = (value: unknown) => parseJournalRecord({ value, runId: "r", where: "test" });

describe("journal records: versions", () => {
  it("writes version 2 and still reads version 1 records (a journal written by 0.1)", async () => {
    expect(JOURNAL_RECORD_VERSION).toBe(2);
    const v1 = { v: 1, kind: "start", runId: "old", input: "Hi", messages: [], at: 1 };
    expect(parse(v1)).toEqual(v1);
    // A run journaled by 0.1 (version 1 records, no end) is resumed by this version.
    const journal = new MemoryJournal();
    const response = {
      text: "Hello.",
      toolCalls: [],
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      finishReason: { unified: "stop", raw: "stop" },
    };
    await journal.append("old", [v1 as never, { v: 1, kind: "model_response", call: 0, response } as never]);
    const model = new ScriptedModel([]);
    const result = await new Agent({ model, journal }).run("Hi", { runId: "old" });
    expect(result.text).toBe("Hello.");
    expect(model.calls).toHaveLength(0);
    expect((await journal.load("old"))?.at(-1)).toMatchObject({ v: 2, kind: "end" });
  });

  it("reads version 1 tool records (`tool`) and finish reasons (`tool-calls`) in the current shape, and resumes a 0.1 run past them", async () => {
    const start = { v: 1, kind: "tool_start", toolCallId: "c1", tool: "lookup", idempotencyKey: "k" };
    const end = { v: 1, kind: "tool_result", toolCallId: "c1", tool: "lookup", ok: true, content: "5" };
    expect(parse(start)).toEqual({
      v: 1,
      kind: "tool_start",
      toolCallId: "c1",
      toolName: "lookup",
      idempotencyKey: "k",
    });
    expect(parse(end)).toEqual({
      v: 1,
      kind: "tool_result",
      toolCallId: "c1",
      toolName: "lookup",
      ok: true,
      content: "5",
    });
    expect(() => parse({ ...start, tool: undefined })).toThrow(/malformed/);
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
    const toolCalls = [{ id: "c1", name: "lookup", arguments: {}, rawArguments: "{}" }];
    const journal = new MemoryJournal();
    await journal.append("old-tool", [
      { v: 1, kind: "start", runId: "old-tool", input: "Price?", messages: [], at: 1 },
      {
        v: 1,
        kind: "model_response",
        call: 0,
        response: { text: "", toolCalls, usage, finishReason: { unified: "tool-calls", raw: "tool_calls" } },
      },
      start,
      end,
    ] as never);
    let executed = 0;
    const lookup = tool({
      name: "lookup",
      description: "Looks up a price.",
      parameters: { type: "object", properties: {} },
      execute: () => {
        executed++;
        return "6";
      },
    });
    const model = new ScriptedModel([{ text: "It is 5." }]);
    const result = await new Agent({ model, tools: [lookup], journal }).run("Price?", { runId: "old-tool" });
    expect(executed).toBe(0);
    expect(result.toolCalls).toMatchObject([{ id: "c1", name: "lookup", ok: true, result: "5" }]);
    expect(result.text).toBe("It is 5.");
    const [, read] = (await journal.load("old-tool")) ?? [];
    expect(read?.kind === "model_response" && read.response.finishReason.unified).toBe("tool_calls");
  });

  it("reads tool results made of content parts, and refuses parts of an unknown type", () => {
    const parts = [
      { type: "text", text: "Screenshot" },
      { type: "image", data: "iVBORw0KGgo=", mediaType: "image/png" },
    ];
    const record = {
      v: 2,
      kind: "tool_result",
      toolCallId: "c1",
      toolName: "shot",
      ok: true,
      content: parts,
    };
    expect(parse(record)).toEqual(record);
    expect(parse({ ...record, content: "text" })).toMatchObject({ content: "text" });
    expect(() => parse({ ...record, content: [{ type: "audio", data: "AA==" }] })).toThrow(/malformed/);
    expect(() => parse({ ...record, content: [null] })).toThrow(/malformed/);
    expect(() => parse({ ...record, content: 5 })).toThrow(/malformed/);
  });

  it("refuses records of a newer version and malformed approval records, never misreads them", () => {
    expect(() => parse({ v: 3, kind: "start" })).toThrow(/written by a newer agentloop/);
    expect(() => parse({ v: 2, kind: "approval_decided", turn: 1, approve: [1], deny: [] })).toThrow(
      /malformed/,
    );
    expect(() => parse({ v: 2, kind: "approval_requested", turn: 1, calls: [{}] })).toThrow(/malformed/);
    expect(() =>
      parse({ v: 2, kind: "start", runId: "r", input: "", messages: [], at: 1, sessionId: 5 }),
    ).toThrow(/malformed/);
  });
});
