import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { validateHistory } from "../context/validate-history.js";
import { OutputError } from "../errors/output-error.js";
import { StepControlError } from "../errors/step-control-error.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { hasToolCall, type StopConditionRun, turnCount } from "./policies/stop-conditions.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const search = tool({
  name: "search",
  description: "search",
  parameters: z.object({ q: z.string() }),
  execute: async ({ q }) => {
    await sleep(30);
    return `found ${q}`;
  },
});
const submit = tool({
  name: "submit",
  description: "submit the answer",
  parameters: z.object({ answer: z.string().min(1) }),
  execute: ({ answer }) => `submitted: ${answer}`,
});
const finish = tool({
  name: "finish",
  description: "give the final answer",
  parameters: z.object({ answer: z.string().min(1) }),
  terminal: true,
  execute: ({ answer }) => answer,
});

const call = (name: string, args: unknown, id = `c_${name}`) => ({ id, name, arguments: args });

describe("stopWhen", () => {
  it("hasToolCall stops after the turn whose call of the tool succeeded (stop reason stop_condition)", async () => {
    const model = new ScriptedModel([
      { toolCalls: [call("submit", { answer: "" }, "bad")] }, // invalid arguments: does not count
      { text: "Submitting.", toolCalls: [call("search", { q: "a" }), call("submit", { answer: "42" })] },
      { text: "never asked" },
    ]);
    const agent = new Agent({ model, tools: [search, submit], stopWhen: hasToolCall("submit") });
    const result = await agent.run("go");
    expect(result.stopReason).toBe("stop_condition");
    expect(model.calls).toHaveLength(2);
    expect(result.text).toBe("Submitting.");
    expect(result.toolCalls.map((c) => [c.name, c.ok])).toEqual([
      ["submit", false],
      ["search", true],
      ["submit", true],
    ]);
    expect(result.messages.at(-1)).toMatchObject({ role: "tool", toolName: "submit" });
    expect(validateHistory(result.messages)).toEqual([]);
    expect(result.events.at(-1)).toMatchObject({ type: "loop_end", data: { stopReason: "stop_condition" } });
  });

  it("turnCount(n) stops after n turns without a wrap-up call; conditions are checked in order", async () => {
    const model = new ScriptedModel(
      Array.from({ length: 5 }, (_, i) => ({ toolCalls: [call("search", { q: `${i}` }, `s${i}`)] })),
    );
    const checked: number[] = [];
    const spy = ({ turn }: StopConditionRun) => {
      checked.push(turn);
      return false;
    };
    const agent = new Agent({
      model,
      tools: [search],
      limits: { wrapUp: true },
      stopWhen: [spy, turnCount(3)],
    });
    const result = await agent.run("go");
    expect(result.stopReason).toBe("stop_condition");
    expect(result.turns).toBe(3);
    expect(model.calls).toHaveLength(3);
    expect(checked).toEqual([1, 2, 3]);
  });

  it("a custom async condition sees the turn's calls, results, history, usage and text", async () => {
    const runs: StopConditionRun[] = [];
    const model = new ScriptedModel([
      { text: "Looking.", toolCalls: [call("search", { q: "x" })] },
      { toolCalls: [call("search", { q: "y" }, "c2")] },
    ]);
    const agent = new Agent({
      model,
      tools: [search],
      stopWhen: async (run) => {
        await sleep(1);
        runs.push(run);
        return run.toolResults.some((r) => r.content === "found y");
      },
    });
    const result = await agent.run("go");
    expect(result.stopReason).toBe("stop_condition");
    expect(
      runs.map((r) => [r.turn, r.toolCalls.map((c) => c.id), r.toolResults.map((m) => m.content), r.text]),
    ).toEqual([
      [1, ["c_search"], ["found x"], "Looking."],
      [2, ["c2"], ["found y"], "Looking."],
    ]);
    expect(runs[1]?.messages).toHaveLength(result.messages.length);
    expect(Object.isFrozen(runs[1]?.messages)).toBe(true);
    expect(runs[1]?.usage.totalTokens).toBe(result.usage.totalTokens);
  });

  it("a condition that throws ends the run with error and a StepControlError; the history stays valid", async () => {
    const model = new ScriptedModel([{ toolCalls: [call("search", { q: "x" })] }]);
    const agent = new Agent({
      model,
      tools: [search],
      stopWhen: () => {
        throw "not an error"; // eslint-disable-line no-throw-literal
      },
    });
    const result = await agent.run("go");
    expect(result.stopReason).toBe("error");
    expect(StepControlError.isInstance(result.error)).toBe(true);
    expect(result.error).toMatchObject({ hook: "stopWhen", turn: 1 });
    expect(result.error?.message).toMatch(/stopWhen failed at turn 1: a condition threw .*not an error/);
    expect(validateHistory(result.messages)).toEqual([]);
  });

  it("a run's stopWhen replaces the agent's; the helpers refuse bad arguments", async () => {
    const model = new ScriptedModel([{ toolCalls: [call("search", { q: "x" })] }, { text: "done" }]);
    const agent = new Agent({ model, tools: [search], stopWhen: turnCount(1) });
    const result = await agent.run("go", { stopWhen: [] });
    expect(result.stopReason).toBe("completed");
    expect(() => hasToolCall()).toThrow(/Invalid names/);
    expect(() => turnCount(0)).toThrow(/Invalid count/);
  });
});

describe("terminal tools", () => {
  it("a successful call ends the run with its result as the answer, after the turn's other calls", async () => {
    const model = new ScriptedModel([
      {
        text: "Wrapping up.",
        toolCalls: [call("search", { q: "x" }), call("finish", { answer: "The answer is 42." })],
      },
      { text: "never asked" },
    ]);
    const agent = new Agent({ model, tools: [search, finish] });
    const stream = agent.stream("go");
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const result = await stream.result;
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("The answer is 42.");
    expect(model.calls).toHaveLength(1);
    expect(result.toolCalls.map((c) => [c.name, c.ok])).toEqual([
      ["search", true],
      ["finish", true],
    ]);
    expect(types.filter((t) => t === "observation")).toHaveLength(2);
    expect(result.events.at(-1)).toMatchObject({
      data: { stopReason: "completed", text: "The answer is 42." },
    });
    expect(validateHistory(result.messages)).toEqual([]);
  });

  it("a failed call does not end the run: the model sees the error and goes on", async () => {
    const model = new ScriptedModel([
      { toolCalls: [call("finish", { answer: "" })] },
      { toolCalls: [call("finish", { answer: "ok" }, "f2")] },
    ]);
    const result = await new Agent({ model, tools: [finish] }).run("go");
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("ok");
    expect(model.calls).toHaveLength(2);
  });

  it("is checked before stopWhen", async () => {
    const model = new ScriptedModel([{ toolCalls: [call("finish", { answer: "done" })] }]);
    const agent = new Agent({ model, tools: [finish], stopWhen: turnCount(1) });
    const result = await agent.run("go");
    expect([result.stopReason, result.text]).toEqual(["completed", "done"]);
  });

  it("gives a typed agent its answer, checked against the schema", async () => {
    const answer = tool({
      name: "answer",
      description: "the typed answer",
      parameters: z.object({ n: z.number() }),
      terminal: true,
      execute: ({ n }) => ({ n: n * 2 }),
    });
    const model = new ScriptedModel([{ toolCalls: [call("answer", { n: 21 })] }]);
    const agent = new Agent({ model, tools: [answer], output: z.object({ n: z.number().max(100) }) });
    const result = await agent.run("go");
    expect(result.stopReason).toBe("completed");
    expect(result.output).toEqual({ n: 42 });
    expect(result.error).toBeUndefined();

    const big = new ScriptedModel([{ toolCalls: [call("answer", { n: 500 })] }]);
    const bad = await agent.with({ model: big }).run("go");
    expect(bad.stopReason).toBe("error");
    expect(bad.output).toBeUndefined();
    expect(OutputError.isInstance(bad.error)).toBe(true);
    expect(bad.error?.message).toMatch(/terminal tool "answer" is not a valid typed answer/);
    expect(big.calls).toHaveLength(1); // not sent back for another try
  });

  it("ends the run when its call is approved on resume", async () => {
    const gated = tool({
      name: "publish",
      description: "publish",
      parameters: z.object({ text: z.string() }),
      needsApproval: true,
      terminal: true,
      execute: ({ text }) => `published: ${text}`,
    });
    const model = new ScriptedModel([{ toolCalls: [call("publish", { text: "hi" })] }, { text: "never" }]);
    const agent = new Agent({ model, tools: [gated] });
    const paused = await agent.run("go");
    expect(paused.stopReason).toBe("awaiting_approval");
    const done = await agent.resume(paused, { approve: ["c_publish"] });
    expect([done.stopReason, done.text]).toEqual(["completed", "published: hi"]);
    expect(model.calls).toHaveLength(1);
    expect(validateHistory(done.messages)).toEqual([]);
  });

  it("refuses a non-boolean terminal option", () => {
    expect(() => tool({ name: "t", description: "", terminal: "yes" as never, execute: () => "" })).toThrow(
      /Invalid terminal/,
    );
  });
});
