// A child process for bad-storage-durable-lock.test.ts (run with vite-node): one durable attempt of run
// RUN_ID on a FileJournal in JOURNAL_DIR. Prints "ready", waits for a line on stdin, runs, prints the outcome
// as JSON: { outcome: "completed" | "busy" | "failed" }. The `record` tool appends the pid to EFFECTS_FILE.
import { appendFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { z } from "zod";
import { Agent } from "../../src/agent.js";
import { FileJournal } from "../../src/durable/file-journal.js";
import { runDurably } from "../../src/durable/run-durably.js";
import { DurableRunBusyError } from "../../src/errors/durable-run-busy-error.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { tool } from "../../src/tools/tool.js";

const { JOURNAL_DIR, RUN_ID, EFFECTS_FILE } = process.env;
if (JOURNAL_DIR === undefined || RUN_ID === undefined || EFFECTS_FILE === undefined) throw new Error("env");
const record = tool({
  name: "record",
  description: "Records a side effect.",
  parameters: z.object({}),
  execute: async () => {
    await appendFile(EFFECTS_FILE, `${process.pid}\n`);
    return "recorded";
  },
});
const model = new ScriptedModel([
  { toolCalls: [{ id: "call_1", name: "record", arguments: {} }], delayMs: 800 },
  { text: "done" },
]);
const agent = new Agent({ model, tools: [record] });
const journal = new FileJournal({ dir: JOURNAL_DIR });

const lines = createInterface({ input: process.stdin });
process.stdout.write("ready\n");
await new Promise<void>((resolve) => lines.once("line", () => resolve()));
lines.close();
try {
  const summary = await runDurably({ agent, journal, runId: RUN_ID, input: "record once" });
  process.stdout.write(`${JSON.stringify({ outcome: summary.stopReason })}\n`);
} catch (error) {
  const outcome = DurableRunBusyError.isInstance(error) ? "busy" : "failed";
  process.stdout.write(`${JSON.stringify({ outcome, message: String(error) })}\n`);
}
