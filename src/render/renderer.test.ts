import { describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { calculator } from "../builtin-tools/calculator.js";
import type { AgentEvent, AgentEventDataMap, AgentEventOf, AgentEventType } from "../loop/agent-event.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { stripAnsi } from "./ansi-style.js";
import { Renderer } from "./renderer.js";

function event<K extends AgentEventType>(type: K, data: AgentEventDataMap[K], turn = 1): AgentEventOf<K> {
  return { type, turn, timestamp: 1_000, data } as AgentEventOf<K>;
}

const action = (tool: string) => event("action", { toolCallId: "c1", toolName: tool, arguments: { x: 1 } });
const observation = (tool: string, result = "42") =>
  event("observation", { toolCallId: "c1", toolName: tool, result, ok: true, durationMs: 3 });

/** A renderer that collects what it writes. */
function collecting(options: { color?: boolean; maxResultChars?: number } = {}): {
  renderer: Renderer;
  output: () => string;
} {
  let text = "";
  const renderer = new Renderer({ ...options, write: (chunk) => (text += chunk) });
  return { renderer, output: () => text };
}

describe("Renderer rules", () => {
  it("uses a tool rule before an event rule before the default", () => {
    const renderer = new Renderer({ write: () => {} })
      .onTool("calculator", () => "tool rule\n")
      .onEvent("action", () => "event rule\n");
    expect(renderer.render(action("calculator"))).toBe("tool rule\n");
    expect(renderer.render(action("other"))).toBe("event rule\n");
    expect(renderer.render(observation("other"))).toBe("← other: 42 (3 ms)\n");
  });

  it("applies tool rules only to action and observation events of that tool", () => {
    const seen: string[] = [];
    const renderer = new Renderer({ write: () => {} }).onTool("calculator", (e) => {
      seen.push(e.type);
      return undefined;
    });
    expect(renderer.render(action("calculator"))).toBeUndefined();
    expect(renderer.render(observation("calculator"))).toBeUndefined();
    renderer.render(event("thought", { content: "hmm" }));
    expect(seen).toEqual(["action", "observation"]);
  });

  it("falls back to the default rendering when a rule throws", () => {
    const renderer = new Renderer({ write: () => {} })
      .onTool("calculator", () => {
        throw new Error("broken tool rule");
      })
      .onEvent("model_call", () => {
        throw new Error("broken event rule");
      });
    expect(renderer.render(action("calculator"))).toBe('→ calculator({"x":1})\n');
    const call = event("model_call", {
      model: "openai:m",
      finishReason: { unified: "stop", raw: "stop" },
      usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 },
      latencyMs: 5,
      costUsd: 0.000012,
      priced: true,
    });
    expect(renderer.render(call)).toBe(
      "· turn 1: openai:m · 5 ms · 10 in / 2 out tokens · $0.000012 · stop\n",
    );
  });

  it("lets a rule decorate the default rendering and print nothing with undefined", () => {
    const renderer = new Renderer({ write: () => {} })
      .onEvent("action", (_e, ctx) => `[${ctx.fallback()?.trim()}]\n`)
      .onEvent("thought", () => undefined);
    expect(renderer.render(action("calculator"))).toBe('[→ calculator({"x":1})]\n');
    expect(renderer.render(event("thought", { content: "x" }))).toBeUndefined();
  });

  it("handle() writes what render() returns and works as an agent hook", async () => {
    const { renderer, output } = collecting();
    renderer.onTool("calculator", (e) => (e.type === "observation" ? `= ${e.data.result}\n` : undefined));
    const model = new ScriptedModel([
      { toolCalls: [{ name: "calculator", arguments: { expression: "6 * 7" } }] },
      { text: "It is 42." },
    ]);
    const agent = new Agent({ model, tools: [calculator], onEvent: (e) => renderer.handle(e) });
    const result = await agent.run("What is 6 * 7?");
    expect(result.stopReason).toBe("completed");
    const lines = output().split("\n");
    expect(lines[0]).toBe("▶ What is 6 * 7? · scripted:scripted");
    expect(lines).toContain("= 42");
    expect(output()).toContain("\nIt is 42.\n");
    // The hook never failed (the scripted model's only warning is that it has no price).
    expect(result.events.some((e) => e.type === "error" && e.data.name !== "UnpricedModel")).toBe(false);
  });
});

describe("Renderer default rendering", () => {
  it("prints streamed text inline and starts the next line on a fresh line", () => {
    const { renderer, output } = collecting();
    renderer.handle(event("loop_start", { task: "t", model: "m" }, 0));
    renderer.handle(event("text_delta", { delta: "Hel" }));
    renderer.handle(event("text_delta", { delta: "lo" }));
    expect(renderer.isMidLine).toBe(true);
    renderer.handle(action("calculator"));
    expect(output()).toBe('▶ t · m\nHello\n→ calculator({"x":1})\n');
  });

  it("does not print a streamed answer or thought twice", () => {
    const { renderer, output } = collecting();
    renderer.handle(event("loop_start", { task: "t", model: "m" }, 0));
    renderer.handle(event("text_delta", { delta: "Let me look." }, 1));
    renderer.handle(event("thought", { content: "Let me look." }, 1));
    renderer.handle(event("text_delta", { delta: "The answer." }, 2));
    renderer.handle(event("loop_end", { stopReason: "completed", text: "The answer." }, 2));
    expect(output().match(/Let me look\./g)).toHaveLength(1);
    expect(output().match(/The answer\./g)).toHaveLength(1);
  });

  it("truncates long tool results to maxResultChars", () => {
    const { renderer } = collecting({ maxResultChars: 10 });
    const text = renderer.render(observation("read_file", "a".repeat(50)));
    expect(text).toBe("← read_file: aaaaaaaaaa… (+40 chars) (3 ms)\n");
  });

  it("shows retries, soft limits, compaction, approvals and errors", () => {
    const { renderer } = collecting();
    expect(
      renderer.render(event("retry", { attempt: 1, delayMs: 500, error: "HTTP 429", source: "request" })),
    ).toBe("↻ retry 1 in 500 ms: HTTP 429\n");
    expect(renderer.render(event("soft_limit", { reason: "turns", prompt: "wrap up" }))).toBe(
      "! soft limit (turns): wrap up\n",
    );
    expect(
      renderer.render(
        event("compaction", {
          removedMessages: 6,
          truncatedToolResults: 0,
          tokensBefore: 12_000,
          tokensAfter: 4_000,
          strategy: "sliding_window",
          reason: "threshold",
        }),
      ),
    ).toBe("⇣ compacted context: 6 messages removed, 12,000 → 4,000 tokens (sliding_window, threshold)\n");
    expect(
      renderer.render(
        event("approval_requested", {
          calls: [{ toolCallId: "c", toolName: "write_file", arguments: { path: "a" } }],
        }),
      ),
    ).toBe('? approval needed: write_file({"path":"a"})\n');
    expect(renderer.render(event("error", { name: "ModelCallError", message: "boom", fatal: true }))).toBe(
      "✗ error: ModelCallError: boom\n",
    );
  });

  it("ends with the totals line: turns, tokens, cost and time", () => {
    const { renderer, output } = collecting();
    const call = (inputTokens: number, outputTokens: number, costUsd: number, turn: number) =>
      ({
        type: "model_call",
        turn,
        timestamp: 1_000 + turn * 100,
        data: {
          model: "m",
          finishReason: { unified: "stop", raw: "stop" },
          usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
          latencyMs: 100,
          costUsd,
          priced: true,
        },
      }) satisfies AgentEvent;
    renderer.handle({ type: "loop_start", turn: 0, timestamp: 1_000, data: { task: "t", model: "m" } });
    renderer.handle(call(1_000, 200, 0.001, 1));
    renderer.handle(call(1_500, 34, 0.0005, 2));
    renderer.handle({
      type: "loop_end",
      turn: 2,
      timestamp: 2_400,
      data: { stopReason: "completed", text: "Done." },
    });
    const lines = output().trimEnd().split("\n");
    expect(lines.at(-1)).toBe("■ completed · 2 turns · 2,734 tokens (2,500 in / 234 out) · $0.0015 · 1.4 s");
    expect(output()).toContain("\nDone.\n");
    expect(renderer.runTotals).toMatchObject({ turns: 2, totalTokens: 2_734 });
  });

  it("counts a run paused for approval and resumed as one run", () => {
    const { renderer, output } = collecting();
    const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
    const call = event("model_call", {
      model: "m",
      finishReason: { unified: "tool_calls", raw: "tool_calls" },
      usage,
      latencyMs: 1,
      costUsd: 0,
      priced: false,
    });
    renderer.handle(event("loop_start", { task: "t", model: "m" }, 0));
    renderer.handle(call);
    renderer.handle(event("loop_end", { stopReason: "awaiting_approval", text: "" }));
    renderer.handle(event("loop_start", { task: "", model: "m" }, 0));
    renderer.handle(call);
    renderer.handle(event("loop_end", { stopReason: "completed", text: "ok" }, 2));
    expect(output()).toContain("⏸ paused: awaiting approval\n");
    expect(output()).toContain("▶ resuming · m\n");
    expect(output()).toContain("■ completed · 2 turns · 30 tokens (20 in / 10 out) · $0 (unpriced)");
  });

  it("colours only when asked", () => {
    const plain = collecting({ color: false }).renderer.render(action("calculator"));
    const coloured = collecting({ color: true }).renderer.render(action("calculator"));
    expect(plain).not.toContain("\u001b[");
    expect(coloured).toContain("\u001b[36m");
    expect(stripAnsi(coloured ?? "")).toBe(plain);
  });

  it("never throws for a malformed event", () => {
    const renderer = new Renderer({ write: () => {} });
    const broken = { type: "model_call", turn: 1, timestamp: 0, data: {} } as unknown as AgentEvent;
    expect(() => renderer.handle(broken)).not.toThrow();
  });

  it("refuses an unknown format, naming the new value of the renamed json-lines", () => {
    expect(() => new Renderer({ format: "json-lines" as never })).toThrow(
      /Invalid format: renamed to "json_lines"/,
    );
    expect(() => new Renderer({ format: "xml" as never })).toThrow(/expected "text" or "json_lines"/);
  });
});
