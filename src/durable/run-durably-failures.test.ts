import { describe, expect, it } from "vitest";
import { DurableRunBusyError } from "../errors/durable-run-busy-error.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { StoreError } from "../errors/store-error.js";
import type { JournalRecord } from "./journal-record.js";
import { MemoryJournal } from "./memory-journal.js";
import { runDurably } from "./run-durably.js";
import type { RunSummary } from "./run-summary.js";
import { agentWith, harness, INPUT, STEPS } from "./test-utils/durable-harness.js";

const kinds = (records: JournalRecord[] | undefined) => (records ?? []).map((record) => record.kind);

describe("runDurably: failures and misuse", () => {
  it("stops the run when the journal fails: the tool is not run, the StoreError rejects, and it resumes later", async () => {
    const inner = new MemoryJournal();
    let failing = true;
    const journal = Object.assign(Object.create(inner) as MemoryJournal, {
      append: async (runId: string, records: readonly JournalRecord[]) => {
        if (failing && records.some((record) => record.kind === "tool_start")) throw new Error("disk full");
        return inner.append(runId, records);
      },
    });
    const tools = harness();
    const { agent, model } = agentWith({ steps: STEPS, tools: tools.tools });
    const error = await runDurably({ agent, journal, runId: "j", input: INPUT }).catch((e: unknown) => e);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("disk full");
    expect(tools.executions).toEqual({ lookup: 0, charge: 0 });
    expect(model.calls).toHaveLength(1);
    expect(kinds(await inner.load("j"))).toEqual(["start", "model_response"]);

    failing = false;
    const resumed = agentWith({ steps: STEPS.slice(1), tools: tools.tools });
    const summary: RunSummary = await runDurably({ agent: resumed.agent, journal, runId: "j" });
    expect(summary.stopReason).toBe("completed");
    expect(tools.executions).toEqual({ lookup: 1, charge: 1 });
  });

  it("rejects a second attempt of a run while the first is running in this process", async () => {
    const journal = new MemoryJournal();
    const slow = agentWith({ steps: [{ text: "done", delayMs: 50 }], tools: [] });
    const running = runDurably({ agent: slow.agent, journal, runId: "busy", input: INPUT });
    const error = await runDurably({ agent: slow.agent, journal, runId: "busy", input: INPUT }).catch(
      (e: unknown) => e,
    );
    expect(DurableRunBusyError.isInstance(error)).toBe(true);
    expect((await running).text).toBe("done");
    expect((await runDurably({ agent: slow.agent, journal, runId: "busy" })).text).toBe("done");
  });

  it("rejects invalid options, a reused run id with another input, and a resume of an unknown run", async () => {
    const journal = new MemoryJournal();
    const { agent } = agentWith({ steps: [{ text: "a" }], tools: [] });
    const invalid = async (promise: Promise<unknown>, argument: string) => {
      const error = await promise.catch((e: unknown) => e);
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).argument).toBe(argument);
    };
    await invalid(runDurably({ agent, journal, runId: "", input: "x" }), "runId");
    await invalid(runDurably({ agent, journal, runId: "u" }), "input");
    await invalid(runDurably({ agent, journal, runId: "u", input: "  " }), "input");
    await invalid(runDurably({ agent, journal, runId: "u", input: "x", ...{ sessionId: "s" } }), "sessionId");
    expect(await journal.list()).toEqual([]);
    await runDurably({ agent, journal, runId: "u", input: "first task" });
    await invalid(runDurably({ agent, journal, runId: "u", input: "another task" }), "input");
  });

  it("an aborted attempt stays unfinished and the next one finishes it", async () => {
    const journal = new MemoryJournal();
    const controller = new AbortController();
    controller.abort();
    const { agent, model } = agentWith({ steps: [{ text: "done" }], tools: [] });
    const aborted = await runDurably({ agent, journal, runId: "a", input: INPUT, signal: controller.signal });
    expect(aborted.stopReason).toBe("aborted");
    expect(await journal.list()).toMatchObject([{ runId: "a", finished: false }]);
    expect((await runDurably({ agent, journal, runId: "a" })).text).toBe("done");
    expect(model.calls).toHaveLength(1);
    expect(await journal.list()).toMatchObject([{ runId: "a", finished: true }]);
  });
});
