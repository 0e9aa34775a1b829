import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "../models/message.js";
import { RunState } from "../sessions/run-state.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import { resolveLimits } from "./agent-limits.js";
import type { AgentLoopConfig } from "./agent-loop.js";
import { createLoopRun, type LoopRun } from "./loop-run.js";
import { loopConfig } from "./test-utils/loop-config.js";

const runs: LoopRun[] = [];
afterEach(() => {
  for (const run of runs.splice(0)) run.signal.dispose({ finished: true });
});

const make = (config: Partial<AgentLoopConfig> = {}) => {
  const run = createLoopRun(
    loopConfig({ model: new ScriptedModel([], { modelId: "m" }), tools: new ToolRegistry(), config }),
  );
  runs.push(run);
  return run;
};

describe("createLoopRun", () => {
  it("makes one state over the caller's messages; a resumed run counts as having called the model", () => {
    const messages: Message[] = [{ role: "user", content: "hi" }];
    const run = make({ messages });
    expect(run.state.messages).toBe(messages);
    expect(run.state.modelCalled).toBe(false);
    expect(run.modelName).toBe("scripted:m");
    expect(make({ resume: { approve: new Set(), deny: new Set() } }).state.modelCalled).toBe(true);
  });

  it("wires the tool step's options from the config, with the run's signal", () => {
    const state = new RunState();
    const registry = new ToolRegistry();
    const run = make({
      tools: registry,
      parallelToolCalls: false,
      toolConcurrency: 2,
      toolTimeoutMs: 1234,
      maxToolResultChars: 99,
      sessionId: "s1",
      state,
    });
    expect(run.tools).toEqual({
      registry,
      signal: run.signal.signal,
      parallel: false,
      concurrency: 2,
      timeoutMs: 1234,
      maxResultChars: 99,
      sessionId: "s1",
      state,
    });
  });

  it("hands the persistence to the checkpoint only", async () => {
    const calls: string[] = [];
    const run = make({
      persistence: {
        flush: async (m) => void calls.push(`flush ${m.length}`),
        replace: async (m) => void calls.push(`replace ${m.length}`),
      },
    });
    await run.checkpoint.turnDone();
    await run.checkpoint.compacted();
    expect(calls).toEqual(["flush 1", "replace 1"]);
  });

  it("wires the limits, the caller's signal, the cost cap and the decided approvals", () => {
    const caller = new AbortController();
    const decisions = { approve: new Set(["a"]), deny: new Set<string>() };
    const run = make({
      limits: resolveLimits({ maxTurns: 2, maxCostUsd: 1 }),
      signal: caller.signal,
      approvals: new Map([[1, decisions]]),
    });
    run.state.turns = 2;
    expect(run.limits.beforeTurn()).toBe("max_turns");
    expect(run.cost.active).toBe(true);
    expect(run.approvals.decisionsFor(1)).toBe(decisions);
    caller.abort();
    expect(run.signal.stopReason()).toBe("aborted");
    expect(make().cost.active).toBe(false);
  });
});
