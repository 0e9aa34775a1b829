import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { calculator } from "../builtin-tools/calculator.js";
import { Budget } from "../cost/budget.js";
import { FileJournal } from "../durable/file-journal.js";
import { Profile } from "../profiles/profile.js";
import { FileStore } from "../stores/file-store.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { PlanAgent } from "./plan-agent.js";
import { planAnswer, toolStep } from "./test-utils/planner-fixtures.js";

/** Plan-and-execute runs on the one agent loop: approvals, limits, budgets, sessions, durable runs. */

const en = new Profile({ language: "en" });

function transfers() {
  const sent: string[] = [];
  const transfer = tool({
    name: "transfer",
    description: "transfers money to an account",
    parameters: z.object({ to: z.string() }),
    needsApproval: true,
    execute: ({ to }) => {
      sent.push(to);
      return `sent to ${to}`;
    },
  });
  return { sent, transfer };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentloop-plan-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("PlanAgent on the agent loop", () => {
  it("a plan step calling a gated tool pauses the run; resume runs it once and answers", async () => {
    const { sent, transfer } = transfers();
    const model = new ScriptedModel([planAnswer(toolStep("transfer", { to: "acme" }))]);
    const agent = new PlanAgent({ model, tools: [transfer, calculator], profile: en });
    const paused = await agent.run("transfer money to acme");
    expect(paused.stopReason).toBe("awaiting_approval");
    expect(paused.pendingApprovals?.map((p) => p.toolCallId)).toEqual(["plan_step_1"]);
    expect(sent).toEqual([]);
    const done = await agent.resume(paused, { approve: ["plan_step_1"] });
    expect(done.stopReason).toBe("completed");
    expect(done.text).toBe("#1 tool transfer succeeded: sent to acme");
    expect(sent).toEqual(["acme"]);
    expect(model.calls).toHaveLength(1); // the plan is not asked for again
  });

  it("a durable plan run of a session pauses, and a new PlanAgent object resumes it by run id", async () => {
    const store = new FileStore({ dir: join(dir, "sessions") });
    const journal = new FileJournal({ dir: join(dir, "journal") });
    const a = transfers();
    const first = new ScriptedModel([planAnswer(toolStep("transfer", { to: "acme" }))]);
    const options = { profile: en, store, journal };
    const paused = await new PlanAgent({ ...options, model: first, tools: [a.transfer] }).run("pay acme", {
      sessionId: "s1",
      runId: "plan-1",
    });
    expect(paused.stopReason).toBe("awaiting_approval");
    const b = transfers();
    const second = new ScriptedModel([]);
    const done = await new PlanAgent({ ...options, model: second, tools: [b.transfer] }).resume("plan-1", {
      approve: ["plan_step_1"],
    });
    expect(done.text).toBe("#1 tool transfer succeeded: sent to acme");
    expect(b.sent).toEqual(["acme"]);
    expect(a.sent).toEqual([]);
    expect(second.calls).toHaveLength(0); // the plan came from the run's log
    const history = (await store.load("s1"))?.messages.map((m) => m.role);
    expect(history).toEqual(["user", "assistant", "tool", "assistant"]);
  });

  it("the run's limits apply: an aborted signal stops it, a cost cap refuses the planning call", async () => {
    const model = new ScriptedModel([planAnswer(toolStep("calculator", { expression: "1 + 1" }))]);
    const agent = new PlanAgent({ model, tools: [calculator], profile: en });
    const aborted = await agent.run("1 + 1", { signal: AbortSignal.abort() });
    expect(aborted.stopReason).toBe("aborted");
    expect(model.calls).toHaveLength(0);
    const priced = new ScriptedModel([planAnswer(toolStep("calculator", { expression: "1 + 1" }))], {
      modelId: "gpt-4o-mini",
    });
    const budget = new Budget({ limitUsd: 0.000001 });
    const capped = await new PlanAgent({ model: priced, tools: [calculator], profile: en, budget }).run(
      "1 + 1",
    );
    expect(capped.stopReason).toBe("cost_limit");
    expect(priced.calls).toHaveLength(0);
  });

  it("streams and traces like any run: the trace holds the plan's tool calls", async () => {
    const model = new ScriptedModel([planAnswer(toolStep("calculator", { expression: "6 * 7" }))]);
    const agent = new PlanAgent({ model, tools: [calculator], profile: en });
    const result = await agent.run("6 * 7", { trace: true });
    expect(result.text).toBe("#1 tool calculator succeeded: 42");
    expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    const toolResults = result.trace?.records.filter((r) => r.kind === "tool_result") ?? [];
    expect(toolResults.map((r) => (r.data as { toolCallId: string }).toolCallId)).toEqual(["plan_step_1"]);
    const streamed: string[] = [];
    const again = new PlanAgent({
      model: new ScriptedModel([planAnswer(toolStep("calculator", { expression: "6 * 7" }))]),
      tools: [calculator],
      profile: en,
      onEvent: (event) => void streamed.push(event.type),
    });
    await again.run("6 * 7");
    expect(streamed.at(-1)).toBe("loop_end");
  });
});
