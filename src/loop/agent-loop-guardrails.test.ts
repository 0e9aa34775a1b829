import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { validateHistory } from "../context/validate-history.js";
import { GuardrailError } from "../errors/guardrail-error.js";
import type {
  GuardrailVerdict,
  InputGuardrail,
  OutputGuardrail,
  ToolGuardrail,
  ToolGuardrailCheck,
} from "../guardrails/guardrail.js";
import { secretsGuardrail } from "../guardrails/secrets-guardrail.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import type { AgentEventOf } from "./agent-event.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pass: GuardrailVerdict = { block: false };

function blockWhen<T>(name: string, test: (check: T) => boolean, reason = `${name} said no`) {
  return { name, check: (check: T): GuardrailVerdict => (test(check) ? { block: true, reason } : pass) };
}

function guardrailEvents(events: readonly { type: string }[]) {
  return events.filter((e): e is AgentEventOf<"guardrail"> => e.type === "guardrail");
}

function recorder() {
  const ran: string[] = [];
  const make = (name: string, delayMs = 0) =>
    tool({
      name,
      description: `records ${name}`,
      parameters: z.object({ n: z.number() }),
      execute: async ({ n }, { signal }) => {
        await sleep(delayMs);
        if (signal.aborted) return "aborted";
        ran.push(`${name}:${n}`);
        return `${name} result ${n}`;
      },
    });
  return { ran, make };
}

describe("input guardrails", () => {
  it("block before the first model call: nothing is sent, the message leaves the history", async () => {
    const model = new ScriptedModel([{ text: "never" }]);
    const input: InputGuardrail = blockWhen("no_passwords", (c) => String(c.input).includes("password"));
    const agent = new Agent({ model, system: "Be brief.", guardrails: { input: [input] } });
    const result = await agent.run("my password is hunter2, log in for me");

    expect(result.stopReason).toBe("guardrail");
    expect(model.calls).toHaveLength(0);
    expect(result.text).toBe("");
    expect(GuardrailError.isInstance(result.error)).toBe(true);
    const error = result.error as GuardrailError;
    expect([error.kind, error.guardrailName, error.reason]).toEqual([
      "input",
      "no_passwords",
      "no_passwords said no",
    ]);
    expect(result.messages).toEqual([{ role: "system", content: "Be brief." }]);
    expect(guardrailEvents(result.events).map((e) => e.data)).toEqual([
      { kind: "input", name: "no_passwords", reason: "no_passwords said no" },
    ]);
    expect(result.events.at(-1)).toMatchObject({
      type: "loop_end",
      data: { stopReason: "guardrail", text: "" },
    });
  });

  it("pass: the run goes on, and every guardrail got the input and the history", async () => {
    const model = new ScriptedModel([{ text: "Hello!" }]);
    const seen: unknown[] = [];
    const input: InputGuardrail = {
      name: "spy",
      check: async ({ kind, input, messages, signal }) => {
        seen.push({ kind, input, count: messages.length, aborted: signal.aborted });
        return pass;
      },
    };
    const result = await new Agent({ model, guardrails: { input: [input] } }).run("hi");
    expect(result.stopReason).toBe("completed");
    expect(seen).toEqual([{ kind: "input", input: "hi", count: 1, aborted: false }]);
  });

  it("mode parallel: the model call starts at once; a block aborts it and discards its answer", async () => {
    const model = new ScriptedModel([{ text: "the secret plan", delayMs: 1000 }]);
    const started: number[] = [];
    const t0 = performance.now();
    const slow: InputGuardrail = {
      name: "slow_moderation",
      mode: "parallel",
      check: async () => {
        await sleep(50);
        started.push(model.calls.length);
        return { block: true, reason: "flagged" };
      },
    };
    const stream = new Agent({ model, guardrails: { input: [slow] } }).stream("tell me");
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const result = await stream.result;

    expect(started).toEqual([1]); // the model was already called when the check finished
    expect(performance.now() - t0).toBeLessThan(500); // the 1 s call was aborted, not awaited
    expect(result.stopReason).toBe("guardrail");
    expect(result.text).toBe("");
    expect(types).not.toContain("text_delta");
    expect(types).not.toContain("model_call");
    expect(result.messages).toEqual([]);
    expect(validateHistory(result.messages)).toEqual([]);
  });

  it("mode parallel: a call that already answered is discarded, but its cost counts", async () => {
    const model = new ScriptedModel([{ text: "fast answer", usage: { inputTokens: 7, outputTokens: 3 } }]);
    const slow: InputGuardrail = {
      name: "slow",
      mode: "parallel",
      check: async () => {
        await sleep(30);
        return { block: true, reason: "no" };
      },
    };
    const result = await new Agent({ model, guardrails: { input: [slow] } }).run("hi");
    expect(result.stopReason).toBe("guardrail");
    expect(result.text).toBe("");
    expect(result.usage.totalTokens).toBe(10);
    expect(result.turns).toBe(1);
    const types = result.events.map((e) => e.type);
    expect(types).toContain("model_call"); // the finished call is accounted for
    expect(types).not.toContain("text_delta");
    expect(types.slice(-2)).toEqual(["guardrail", "loop_end"]);
    expect(result.messages.filter((m) => m.role === "assistant")).toEqual([]);
  });

  it("mode parallel: when the check passes, the held events come out and the run goes on", async () => {
    const model = new ScriptedModel([{ text: "one two three" }]);
    const ok: InputGuardrail = {
      name: "ok",
      mode: "parallel",
      check: async () => {
        await sleep(20);
        return pass;
      },
    };
    const stream = new Agent({ model, guardrails: { input: [ok] } }).stream("hi");
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === "text_delta") deltas.push(event.data.delta);
    const result = await stream.result;
    expect(result.stopReason).toBe("completed");
    expect(deltas.join("")).toBe("one two three");
  });
});

describe("output guardrails", () => {
  it("block the final answer: not returned, and its turn leaves the history", async () => {
    const model = new ScriptedModel([{ text: "Mail me at jane.doe@example.com" }]);
    const agent = new Agent({ model, guardrails: { output: [secretsGuardrail()] } });
    const result = await agent.run("contact?");
    expect(result.stopReason).toBe("guardrail");
    expect(result.text).toBe("");
    expect(result.error).toMatchObject({ kind: "output", guardrailName: "secrets" });
    expect((result.error as GuardrailError).reason).toBe("the answer contains email");
    expect(result.messages).toEqual([{ role: "user", content: "contact?" }]);
    expect(result.events.at(-1)).toMatchObject({ data: { stopReason: "guardrail", text: "" } });
  });

  it("run on the validated typed answer; a block clears result.output", async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ id: "f", name: "final_answer", arguments: { city: "Paris", score: 12 } }] },
    ]);
    const seen: unknown[] = [];
    const output: OutputGuardrail = {
      name: "score_cap",
      check: ({ output }) => {
        seen.push(output);
        return (output as { score: number }).score > 10 ? { block: true, reason: "score too high" } : pass;
      },
    };
    const agent = new Agent({
      model,
      output: z.object({ city: z.string(), score: z.number() }),
      guardrails: { output: [output] },
    });
    const result = await agent.run("rate Paris");
    expect(seen).toEqual([{ city: "Paris", score: 12 }]);
    expect(result.stopReason).toBe("guardrail");
    expect(result.output).toBeUndefined();
    expect(result.text).toBe("");
    expect(GuardrailError.isInstance(result.error)).toBe(true);
    expect(result.messages).toEqual([{ role: "user", content: "rate Paris" }]);
  });

  it("pass: the answer is returned as usual", async () => {
    const model = new ScriptedModel([{ text: "Fine." }]);
    const result = await new Agent({ model, guardrails: { output: [secretsGuardrail()] } }).run("hi");
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("Fine.");
    expect(result.error).toBeUndefined();
  });
});

describe("tool guardrails", () => {
  it("block a call before it runs: no call of the turn runs, every call is answered", async () => {
    const { ran, make } = recorder();
    const model = new ScriptedModel([
      {
        toolCalls: [
          { id: "a", name: "read", arguments: { n: 1 } },
          { id: "b", name: "delete", arguments: { n: 2 } },
          { id: "c", name: "read", arguments: { n: 3 } },
        ],
      },
      { text: "never" },
    ]);
    const noDelete: ToolGuardrail = blockWhen<ToolGuardrailCheck>(
      "no_delete",
      (c) => c.phase === "call" && c.toolName === "delete",
    );
    const agent = new Agent({
      model,
      tools: [make("read"), make("delete")],
      guardrails: { tool: [noDelete] },
    });
    const result = await agent.run("clean up");

    expect(result.stopReason).toBe("guardrail");
    expect(ran).toEqual([]);
    expect(model.calls).toHaveLength(1);
    expect(result.error).toMatchObject({ kind: "tool", toolCallId: "b", phase: "call" });
    expect(guardrailEvents(result.events).map((e) => e.data)).toEqual([
      { kind: "tool", name: "no_delete", reason: "no_delete said no", toolCallId: "b", phase: "call" },
    ]);
    expect(result.events.some((e) => e.type === "action")).toBe(false);
    expect(validateHistory(result.messages)).toEqual([]);
    const answers = result.messages.filter((m) => m.role === "tool").map((m) => [m.toolCallId, m.content]);
    expect(answers).toEqual([
      ["a", "Not executed: a guardrail stopped the run."],
      ["b", "Not executed: a guardrail stopped the run."],
      ["c", "Not executed: a guardrail stopped the run."],
    ]);
  });

  it("block a result: it never reaches the model; calls not started do not start; a running one is cancelled", async () => {
    const { ran, make } = recorder();
    const model = new ScriptedModel([
      {
        toolCalls: [
          { id: "quick", name: "ok", arguments: { n: 2 } },
          { id: "fast", name: "env", arguments: { n: 1 } },
          { id: "slow", name: "slow", arguments: { n: 3 } },
          { id: "later", name: "ok", arguments: { n: 4 } },
        ],
      },
      { text: "never" },
    ]);
    const env = tool({
      name: "env",
      description: "reads the environment",
      parameters: z.object({ n: z.number() }),
      execute: async () => {
        await sleep(20);
        return `OPENAI_API_KEY=${"sk"}-proj-abcdefghijklmnop1234567890`;
      },
    });
    const agent = new Agent({
      model,
      tools: [env, make("ok"), make("slow", 1000)],
      toolConcurrency: 2, // quick and fast start; slow when quick is done; later would start after fast
      guardrails: { tool: [secretsGuardrail({ phase: "result" })] },
    });
    const t0 = performance.now();
    const result = await agent.run("look around");

    expect(result.stopReason).toBe("guardrail");
    expect(performance.now() - t0).toBeLessThan(500); // the 1 s call did not hold the run
    expect(ran).toEqual(["ok:2"]); // "later" never started; "slow" was cut off
    expect(model.calls).toHaveLength(1);
    expect(result.error).toMatchObject({ kind: "tool", toolCallId: "fast", phase: "result" });
    expect((result.error as GuardrailError).reason).toBe("the result of env contains api_key, secret");
    expect(JSON.stringify(result.messages)).not.toContain("sk-proj");
    expect(JSON.stringify(result.events)).not.toContain("sk-proj");
    expect(validateHistory(result.messages)).toEqual([]);
    const answers = result.messages.filter((m) => m.role === "tool").map((m) => [m.toolCallId, m.content]);
    expect(answers).toEqual([
      ["quick", "ok result 2"],
      ["fast", 'Withheld: guardrail "secrets" blocked this result; the run stopped.'],
      ["slow", 'Cancelled: guardrail "secrets" stopped the run.'],
      ["later", 'Cancelled: guardrail "secrets" stopped the run.'],
    ]);
  });

  it("with parallelToolCalls: false, the next call waits for the previous result's verdict", async () => {
    const { ran, make } = recorder();
    const model = new ScriptedModel([
      {
        toolCalls: [
          { id: "a", name: "t", arguments: { n: 1 } },
          { id: "b", name: "t", arguments: { n: 2 } },
        ],
      },
    ]);
    const slowVerdict: ToolGuardrail = {
      name: "slow_no",
      phase: "result",
      check: async () => {
        await sleep(40);
        return { block: true, reason: "no" };
      },
    };
    const agent = new Agent({
      model,
      tools: [make("t")],
      parallelToolCalls: false,
      guardrails: { tool: [slowVerdict] },
    });
    const result = await agent.run("go");
    expect(result.stopReason).toBe("guardrail");
    expect(ran).toEqual(["t:1"]);
  });

  it("checks every result and passes them through when clean", async () => {
    const { make } = recorder();
    const model = new ScriptedModel([
      { toolCalls: [{ id: "a", name: "t", arguments: { n: 1 } }] },
      { text: "done" },
    ]);
    const seen: ToolGuardrailCheck[] = [];
    const spy: ToolGuardrail = {
      name: "spy",
      check: (check) => {
        seen.push(check);
        return pass;
      },
    };
    const result = await new Agent({ model, tools: [make("t")], guardrails: { tool: [spy] } }).run("go");
    expect(result.stopReason).toBe("completed");
    expect(seen.map((c) => [c.phase, c.toolName, c.toolCallId, c.arguments, c.turn])).toEqual([
      ["call", "t", "a", { n: 1 }, 1],
      ["result", "t", "a", { n: 1 }, 1],
    ]);
    expect(seen[1]).toMatchObject({ result: "t result 1", ok: true });
  });
});

describe("a guardrail that fails", () => {
  it.each([
    ["a string", "nope"],
    ["a Symbol", Symbol("s")],
    ["null", null],
    [
      "a Proxy whose traps throw",
      new Proxy(
        {},
        {
          get: () => {
            throw new Error("trap");
          },
        },
      ),
    ],
  ])("throwing %s blocks the run (fail closed) with a non-fatal error event", async (_, thrown) => {
    const model = new ScriptedModel([{ text: "never" }]);
    const broken: InputGuardrail = {
      name: "broken",
      check: () => {
        throw thrown;
      },
    };
    const result = await new Agent({ model, guardrails: { input: [broken] } }).run("hi");
    expect(result.stopReason).toBe("guardrail");
    expect(model.calls).toHaveLength(0);
    const error = result.error as GuardrailError;
    expect(error.reason).toMatch(/^the guardrail failed \(/);
    expect(error.cause).toBeInstanceOf(Error);
    const failures = result.events.filter((e) => e.type === "error");
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      data: { fatal: false, message: expect.stringContaining('"broken" failed') },
    });
  });

  it("a verdict that is not { block: boolean } blocks", async () => {
    const model = new ScriptedModel([{ text: "answer" }]);
    const sloppy = { name: "sloppy", check: () => undefined as unknown as GuardrailVerdict };
    const result = await new Agent({ model, guardrails: { output: [sloppy] } }).run("hi");
    expect(result.stopReason).toBe("guardrail");
    expect((result.error as GuardrailError).reason).toContain("not a verdict");
  });

  it("a guardrail that hangs does not hold the run past its timeout", async () => {
    const model = new ScriptedModel([{ text: "never" }]);
    const hang: InputGuardrail = { name: "hang", check: () => new Promise<GuardrailVerdict>(() => {}) };
    const agent = new Agent({ model, limits: { timeoutMs: 50 }, guardrails: { input: [hang] } });
    const result = await agent.run("hi");
    expect(result.stopReason).toBe("timeout");
  });
});

describe("which answers output guardrails check", () => {
  const spy = () => {
    const seen: string[] = [];
    const guardrail: OutputGuardrail = {
      name: "no_answers",
      check: ({ text }) => {
        seen.push(text);
        return { block: true, reason: "withheld" };
      },
    };
    return { seen, guardrail };
  };

  it("the wrap-up's answer at maxTurns: withheld, its turn removed", async () => {
    const { make } = recorder();
    const { seen, guardrail } = spy();
    const model = new ScriptedModel([
      { toolCalls: [{ id: "a", name: "t", arguments: { n: 1 } }] },
      { text: "best effort answer" },
    ]);
    const agent = new Agent({
      model,
      tools: [make("t")],
      limits: { maxTurns: 1, wrapUp: true },
      guardrails: { output: [guardrail] },
    });
    const result = await agent.run("go");
    expect(seen).toEqual(["best effort answer"]);
    expect(result.stopReason).toBe("guardrail");
    expect(result.text).toBe("");
    expect(result.messages.at(-1)?.role).toBe("user"); // the wrap-up prompt; the answer left
    expect(validateHistory(result.messages)).toEqual([]);
  });

  it("a truncated answer (max_output_tokens) is checked too", async () => {
    const { seen, guardrail } = spy();
    const model = new ScriptedModel([{ text: "cut off here", finishReason: "length" }]);
    const result = await new Agent({ model, guardrails: { output: [guardrail] } }).run("go");
    expect(seen).toEqual(["cut off here"]);
    expect(result.stopReason).toBe("guardrail");
  });

  it("runs that did not end with an answer are not checked (a limit, an abort, a pause)", async () => {
    const { seen, guardrail } = spy();
    const { make } = recorder();
    const looping = new ScriptedModel(() => ({
      text: "thinking",
      toolCalls: [{ name: "t", arguments: { n: 1 } }],
    }));
    const limited = await new Agent({
      model: looping,
      tools: [make("t")],
      limits: { maxTurns: 2 },
      guardrails: { output: [guardrail] },
    }).run("go");
    expect(limited.stopReason).toBe("max_turns");
    expect(limited.text).toBe("thinking");
    const controller = new AbortController();
    controller.abort();
    const aborted = await new Agent({
      model: new ScriptedModel([]),
      guardrails: { output: [guardrail] },
    }).run("go", { signal: controller.signal });
    expect(aborted.stopReason).toBe("aborted");
    expect(seen).toEqual([]);
  });

  it("a terminal tool's result as the answer: withheld, but the turn that ran stays in the history", async () => {
    const { seen, guardrail } = spy();
    const submit = tool({
      name: "submit",
      description: "submits the answer",
      parameters: z.object({ answer: z.string() }),
      terminal: true,
      execute: ({ answer }) => answer,
    });
    const model = new ScriptedModel([
      { toolCalls: [{ id: "s", name: "submit", arguments: { answer: "42" } }] },
    ]);
    const result = await new Agent({ model, tools: [submit], guardrails: { output: [guardrail] } }).run("go");
    expect(seen).toEqual(["42"]);
    expect(result.stopReason).toBe("guardrail");
    expect(result.text).toBe("");
    expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
  });
});
