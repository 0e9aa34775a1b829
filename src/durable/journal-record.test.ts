import { describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { ScriptedModel } from "../testing/scripted-model.js";
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
