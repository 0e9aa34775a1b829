import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createEstimatingCounter } from "../context/create-estimating-counter.js";
import type { Message } from "../models/message.js";
import type { RunPersistence } from "../sessions/run-persistence.js";
import { ScriptedModel, type ScriptedSteps } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import { type AgentLoopConfig, type AgentLoopOutcome, agentLoop } from "./agent-loop.js";
import { resolveContextOptions } from "./context-options.js";
import { Checkpoint } from "./policies/checkpoint.js";
import { loopConfig } from "./test-utils/loop-config.js";

const page = tool({
  name: "page",
  description: "a long page",
  parameters: z.object({ p: z.number() }),
  execute: ({ p }) => `page ${p}: ${"lorem ipsum dolor sit amet ".repeat(120)}`,
});

function recording() {
  const calls: string[] = [];
  const persistence: RunPersistence = {
    flush: async (m: readonly Message[]) => void calls.push(`flush ${m.length}`),
    replace: async (m: readonly Message[]) => void calls.push(`replace ${m.length}`),
  };
  return { calls, persistence };
}

async function drive(steps: ScriptedSteps, config: Partial<AgentLoopConfig>): Promise<AgentLoopOutcome> {
  const gen = agentLoop(
    loopConfig({ model: new ScriptedModel(steps), tools: new ToolRegistry({ tools: [page] }), config }),
  );
  for (;;) {
    const next = await gen.next();
    if (next.done) return next.value;
  }
}

const reading = (pages: number) => (_request: unknown, index: number) =>
  index < pages
    ? { toolCalls: [{ id: `p${index}`, name: "page", arguments: { p: index } }] }
    : { text: "read" };

describe("agentLoop: the checkpoint seam", () => {
  afterEach(() => vi.restoreAllMocks());

  it("persists once per completed tool step and once at the end, all through the checkpoint", async () => {
    const step = vi.spyOn(Checkpoint.prototype, "turnDone");
    const end = vi.spyOn(Checkpoint.prototype, "end");
    const { calls, persistence } = recording();
    const outcome = await drive(reading(2), { persistence });
    expect(outcome.stopReason).toBe("completed");
    // user, (assistant, tool) × 2, then the answer.
    expect(calls).toEqual(["flush 3", "flush 5", "flush 6"]);
    expect(step).toHaveBeenCalledTimes(2);
    expect(end).toHaveBeenCalledTimes(1);
  });

  it("replaces the stored history after each compaction, then goes on flushing", async () => {
    const compacted = vi.spyOn(Checkpoint.prototype, "compacted");
    const { calls, persistence } = recording();
    const context = resolveContextOptions({ maxContextTokens: 4000, counter: createEstimatingCounter() });
    const outcome = await drive(reading(8), { persistence, context });
    expect(outcome.stopReason).toBe("completed");
    const replaced = calls.filter((c) => c.startsWith("replace"));
    expect(replaced.length).toBeGreaterThan(0);
    expect(compacted).toHaveBeenCalledTimes(replaced.length);
    expect(calls.at(-1)).toMatch(/^flush/);
    expect(calls.filter((c) => c.startsWith("flush"))).toHaveLength(9); // 8 steps + the end
  });

  it("persists nothing for a run aborted before its first model call", async () => {
    const { calls, persistence } = recording();
    const outcome = await drive(reading(1), { persistence, signal: AbortSignal.abort() });
    expect(outcome.stopReason).toBe("aborted");
    expect(calls).toEqual([]);
  });
});
