import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import type { AgentEvent, AgentEventDataMap, AgentEventOf, AgentEventType } from "../loop/agent-event.js";
import type { AgentResult } from "../loop/agent-result.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { createAnsiStyle, stripAnsi } from "./ansi-style.js";
import { formatEvent } from "./format-event.js";
import { formatCost, formatCount } from "./format-values.js";
import { Renderer } from "./renderer.js";
import { RunTotals } from "./run-totals.js";
import { createTerminalRenderer } from "./terminal-renderer.js";

// Sub-agents (agent.asTool): their events arrive in the caller's stream tagged with `agent`. The renderer shows
// them under the call that runs them, keeps them out of the caller's answer, and counts them once.

const PRICING = { scripted: { inputPerMTok: 10, outputPerMTok: 10 } };
const USAGE = { inputTokens: 100, outputTokens: 20 }; // $0.0012 per call at PRICING

/** A stream double, as `process.stdout` would be (`isTTY` decides on colour). */
function stream(isTTY: boolean): { write(text: string): void; isTTY: boolean; text: string } {
  return {
    isTTY,
    text: "",
    write(chunk: string) {
      this.text += chunk;
    },
  };
}

/** lead → research (researcher) → fetch (fetcher): a sub-agent with a sub-agent of its own, all streaming text. */
function team(onEvent?: (event: AgentEvent) => void): Agent {
  const fetcher = new Agent({
    name: "fetcher",
    model: new ScriptedModel([{ text: "page one\npage two", usage: USAGE }]),
    pricing: PRICING,
  });
  const researcher = new Agent({
    name: "researcher",
    model: new ScriptedModel([
      {
        text: "I will fetch it.",
        toolCalls: [{ id: "f1", name: "fetch", arguments: { input: "https://example.com" } }],
        usage: USAGE,
      },
      { text: "Paris has 2.1M people.", usage: USAGE },
    ]),
    pricing: PRICING,
    tools: [fetcher.asTool({ name: "fetch", description: "fetches a page" })],
  });
  return new Agent({
    name: "lead",
    model: new ScriptedModel([
      {
        text: "Let me ask.",
        toolCalls: [{ id: "c1", name: "research", arguments: { input: "population of Paris" } }],
        usage: USAGE,
      },
      { text: "About 2.1 million.", usage: USAGE },
    ]),
    pricing: PRICING,
    tools: [researcher.asTool({ name: "research", description: "researches a question" })],
    ...(onEvent !== undefined && { onEvent }),
  });
}

/** Streams a run of `agent` into a terminal renderer writing to `out`. */
async function streamInto(agent: Agent, out: ReturnType<typeof stream>): Promise<AgentResult> {
  const renderer = createTerminalRenderer({ stream: out, env: {} });
  const run = agent.stream("How many people live in Paris?");
  for await (const event of run) renderer.handle(event);
  return run.result;
}

/** The totals line the renderer should end with for `result` (a run without a pause). */
function footerOf(result: AgentResult): RegExp {
  const u = result.usage;
  const tokens = `${formatCount(u.totalTokens)} tokens (${formatCount(u.inputTokens)} in / ${formatCount(u.outputTokens)} out)`;
  const escaped = `■ completed · ${result.turns} turns · ${tokens} · ${formatCost(result.costUsd)} · `;
  return new RegExp(`^${escaped.replace(/[.*+?^${}()|[\]\\$]/g, "\\$&")}\\d+ ms$`);
}

describe("Renderer: sub-agents from a real run", () => {
  it("shows a sub-agent's events indented under its call, named, and a sub-sub-agent's deeper", async () => {
    const out = stream(false);
    await streamInto(team(), out);
    const lines = out.text.split("\n");
    const at = (line: string): number => {
      const index = lines.indexOf(line);
      expect(index, `missing line ${JSON.stringify(line)} in:\n${out.text}`).toBeGreaterThanOrEqual(0);
      return index;
    };
    const call = at('→ research({"input":"population of Paris"})');
    const started = at("  ↳ researcher: started · population of Paris");
    at("  researcher: I will fetch it.");
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^ {2}researcher · turn 1: scripted:scripted · \d+ ms · 100 in \/ 20 out tokens · \$0\.0012 · tool_calls$/,
      ),
    );
    at('  researcher → fetch({"input":"https://example.com"})');
    at("    ↳ fetcher: started · https://example.com");
    // The sub-sub-agent's streamed text keeps its own line structure, each line indented and named.
    const pageOne = at("    fetcher: page one");
    expect(lines[pageOne + 1]).toBe("    fetcher: page two");
    at("    ↳ fetcher: done (completed, 1 turn, $0.0012)");
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}researcher ← fetch: page one ⏎ page two \(\d+ ms\)$/),
    );
    at("  researcher: Paris has 2.1M people.");
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}researcher · turn 2: /));
    // The researcher's own two turns; its cost includes the fetcher's call (3 × $0.0012).
    const done = at("  ↳ researcher: done (completed, 2 turns, $0.0036)");
    const result = lines.findIndex((line) => line.startsWith("← research: Paris has 2.1M people."));
    expect(call).toBeLessThan(started);
    expect(done).toBeLessThan(result);
    // Every line between the call and its result belongs to a sub-agent: indented.
    for (const line of lines.slice(call + 1, result)) expect(line).toMatch(/^ {2}/);
  });

  it("keeps the caller's streamed answer clean of the sub-agents' text", async () => {
    const out = stream(false);
    const result = await streamInto(team(), out);
    const lines = out.text.split("\n");
    expect(result.text).toBe("About 2.1 million.");
    // The caller's own streamed text, each on a line of its own, with nothing glued before or after.
    expect(lines).toContain("Let me ask.");
    expect(lines).toContain("About 2.1 million.");
    expect(out.text.match(/About 2\.1 million\./g)).toHaveLength(1); // streamed, not printed again
    for (const line of lines.filter((l) => !l.startsWith(" "))) {
      expect(line).not.toMatch(/page one|page two|Paris has 2\.1M people\.(?! \()|I will fetch/);
    }
  });

  it("ends with totals equal to the result's: the caller's turns, every model call's tokens and cost once", async () => {
    const out = stream(false);
    const result = await streamInto(team(), out);
    expect(result.turns).toBe(2);
    expect(result.costUsd).toBeCloseTo(5 * 0.0012, 10); // 2 lead + 2 researcher + 1 fetcher calls
    const last = out.text.trimEnd().split("\n").at(-1) ?? "";
    expect(last).toMatch(footerOf(result));
  });

  it("counts the same totals from a run's events (agent.run with the renderer as its hook)", async () => {
    const renderer = new Renderer({ write: () => {} });
    const result = await team((e) => renderer.handle(e)).run("go");
    const totals = renderer.runTotals;
    expect(totals.turns).toBe(result.turns);
    expect(totals.costUsd).toBeCloseTo(result.costUsd, 12);
    expect({ i: totals.inputTokens, o: totals.outputTokens, t: totals.totalTokens }).toEqual({
      i: result.usage.inputTokens,
      o: result.usage.outputTokens,
      t: result.usage.totalTokens,
    });
  });

  it("dims a sub-agent's lines on a terminal, keeping the caller's in full colour", async () => {
    const out = stream(true);
    await streamInto(team(), out);
    const lines = out.text.split("\n");
    const nested = lines.filter((line) => /^ {2,}\S/.test(stripAnsi(line)));
    expect(nested.length).toBeGreaterThan(8);
    // Each nested line: its indentation, then everything after it dimmed (colours kept inside).
    const DIM = "\u001b[2m";
    for (const line of nested) {
      const indent = line.length - line.trimStart().length;
      expect(indent).toBeGreaterThanOrEqual(2);
      expect(line.slice(indent, indent + DIM.length)).toBe(DIM);
      expect(line.endsWith("\u001b[22m")).toBe(true);
    }
    const call = lines.find((line) => stripAnsi(line).startsWith("→ research("));
    expect(call?.startsWith("\u001b[36m")).toBe(true);
  });

  it("shows a pending approval inside a sub-agent with its path, and the resumed run's totals", async () => {
    const deleted: string[] = [];
    const del = tool({
      name: "delete_file",
      description: "deletes a file",
      parameters: z.object({ path: z.string() }),
      needsApproval: true,
      execute: ({ path }) => {
        deleted.push(path);
        return `deleted ${path}`;
      },
    });
    const cleaner = new Agent({
      name: "cleaner",
      model: new ScriptedModel([
        { toolCalls: [{ id: "d1", name: "delete_file", arguments: { path: "/tmp/x" } }], usage: USAGE },
        { text: "deleted it", usage: USAGE },
      ]),
      pricing: PRICING,
      tools: [del],
    });
    let text = "";
    const renderer = new Renderer({ write: (chunk) => (text += chunk) });
    const lead = new Agent({
      name: "lead",
      model: new ScriptedModel([
        { toolCalls: [{ id: "c1", name: "cleanup", arguments: { input: "delete /tmp/x" } }], usage: USAGE },
        { text: "all done", usage: USAGE },
      ]),
      pricing: PRICING,
      tools: [cleaner.asTool({ name: "cleanup", description: "cleans up" })],
      onEvent: (e) => renderer.handle(e),
    });
    const paused = await lead.run("clean up");
    expect(paused.pendingApprovals?.[0]?.agent).toBe("lead/cleaner");
    const lines = text.split("\n");
    expect(lines).toContain('  cleaner ? approval needed: delete_file({"path":"/tmp/x"})');
    expect(lines).toContain("  ↳ cleaner: paused (awaiting approval)");
    expect(lines).toContain('? approval needed: delete_file({"path":"/tmp/x"}) · in lead/cleaner');
    expect(lines).toContain("⏸ paused: awaiting approval");

    const done = await lead.resume(paused, { approve: ["d1"] });
    expect(deleted).toEqual(["/tmp/x"]);
    const after = text.split("\n");
    expect(after).toContain("  ↳ cleaner: resumed");
    expect(after).toContain('  cleaner → delete_file({"path":"/tmp/x"})');
    // The cleaner's turns and cost count across its pause, like the caller's.
    expect(after).toContain("  ↳ cleaner: done (completed, 2 turns, $0.0024)");
    expect(after).toContain("all done");
    const footer = after.filter((line) => line.startsWith("■ ")).at(-1);
    const cost = formatCost(paused.costUsd + done.costUsd);
    expect(footer).toContain(`■ completed · ${paused.turns + done.turns} turns · `);
    expect(footer).toContain(` · ${cost} · `);
    expect(paused.costUsd + done.costUsd).toBeCloseTo(4 * 0.0012, 10);
  });
});

function event<K extends AgentEventType>(
  type: K,
  data: AgentEventDataMap[K],
  extra: { turn?: number; agent?: string } = {},
): AgentEventOf<K> {
  return { type, turn: extra.turn ?? 1, timestamp: 1_000, data, ...extra } as AgentEventOf<K>;
}

const delta = (text: string, agent?: string): AgentEvent =>
  event("text_delta", { delta: text }, agent === undefined ? {} : { agent });

describe("Renderer: sub-agents' streamed text", () => {
  it("starts a new named line whenever another agent's text arrives (two sub-agents at once)", () => {
    let text = "";
    const renderer = new Renderer({ write: (chunk) => (text += chunk) });
    for (const e of [
      event("loop_start", { task: "t", model: "m" }, { turn: 0 }),
      delta("Asking both."),
      delta("Par", "lead/a"),
      delta("is", "lead/a"),
      delta("Ber", "lead/b"),
      delta(" ok", "lead/a"),
      delta("lin\nsecond line", "lead/b"),
      delta("Both answered."),
    ]) {
      renderer.handle(e);
    }
    expect(text).toBe(
      "▶ t · m\nAsking both.\n  a: Paris\n  b: Ber\n  a:  ok\n  b: lin\n  b: second line\nBoth answered.",
    );
  });

  it("does not take a sub-agent's answer for the caller's (it is printed at the caller's end)", () => {
    let text = "";
    const renderer = new Renderer({ write: (chunk) => (text += chunk) });
    renderer.handle(event("loop_start", { task: "t", model: "m" }, { turn: 0 }));
    renderer.handle(delta("The answer.", "lead/a"));
    renderer.handle(event("loop_end", { stopReason: "completed", text: "The answer." }, { agent: "lead/a" }));
    renderer.handle(event("loop_end", { stopReason: "completed", text: "The answer." }));
    // Once as the sub-agent's streamed text, once as the caller's answer (which the caller did not stream).
    expect(text.match(/The answer\./g)).toHaveLength(2);
    expect(text).toContain("\n\nThe answer.\n\n■ completed");
  });

  it("labels a sub-agent's reasoning once per stretch and never joins it to the caller's", () => {
    let text = "";
    const renderer = new Renderer({ write: (chunk) => (text += chunk) });
    renderer.handle(event("reasoning_delta", { delta: "hmm" }));
    renderer.handle(event("reasoning_delta", { delta: "let me" }, { agent: "lead/a" }));
    renderer.handle(event("reasoning_delta", { delta: " see" }, { agent: "lead/a" }));
    renderer.handle(event("reasoning_delta", { delta: " more" }));
    expect(text).toBe("thinking: hmm\n  a: thinking: let me see\nthinking:  more");
  });
});

describe("RunTotals and formatEvent with sub-agents", () => {
  const call = (costUsd: number, agent?: string): AgentEvent =>
    event(
      "model_call",
      {
        model: "m",
        finishReason: { unified: "stop", raw: "stop" },
        usage: { inputTokens: 10, outputTokens: 1, totalTokens: 11 },
        latencyMs: 1,
        costUsd,
        priced: true,
      },
      agent === undefined ? {} : { agent },
    );

  it("counts a run's own turns, and tokens and cost of its sub-agents at any depth, but no one else's", () => {
    const events: AgentEvent[] = [
      event("loop_start", { task: "t", model: "m" }, { turn: 0 }),
      call(1),
      event("loop_start", { task: "q", model: "m" }, { turn: 0, agent: "lead/a" }),
      call(2, "lead/a"),
      event("loop_start", { task: "q", model: "m" }, { turn: 0, agent: "lead/a/b" }),
      call(4, "lead/a/b"),
      event("loop_end", { stopReason: "completed", text: "x" }, { agent: "lead/a/b" }),
      event("loop_end", { stopReason: "completed", text: "x" }, { agent: "lead/a" }),
      event("loop_start", { task: "q", model: "m" }, { turn: 0, agent: "lead/ab" }),
      call(8, "lead/ab"),
      event("loop_end", { stopReason: "completed", text: "x" }, { agent: "lead/ab" }),
      call(16),
    ];
    const root = new RunTotals();
    const a = new RunTotals({ agent: "lead/a" });
    for (const e of events) {
      root.add(e);
      a.add(e);
    }
    // A sub-agent's loop_start does not reset the caller's totals (it did before sub-agents were counted).
    expect(root.snapshot()).toMatchObject({ turns: 2, costUsd: 31, inputTokens: 50 });
    expect(a.snapshot()).toMatchObject({ turns: 1, costUsd: 6, inputTokens: 20 });
  });

  it("formatEvent renders a sub-agent's event nested, with the totals it is given", () => {
    const style = createAnsiStyle({ enabled: false });
    const totals = { ...new RunTotals().snapshot(), turns: 3, costUsd: 0.0125 };
    const render = (e: AgentEvent): string | undefined =>
      formatEvent({ event: e, style, maxResultChars: 300, totals, streamedText: new Map() });
    expect(render(event("loop_end", { stopReason: "max_turns", text: "" }, { agent: "lead/a/b" }))).toBe(
      "    ↳ b: stopped (max_turns, 3 turns, $0.0125)\n",
    );
    expect(
      render(
        event(
          "observation",
          { toolCallId: "x", toolName: "t", result: "r", ok: false, durationMs: 2 },
          { agent: "lead/a" },
        ),
      ),
    ).toBe("  a ✗ t failed: r (2 ms)\n");
    expect(render(event("loop_start", { task: "", model: "m" }, { turn: 0, agent: "lead/a" }))).toBe(
      "  ↳ a: resumed\n",
    );
    expect(render(event("thought", { content: "first\nsecond" }, { agent: "lead/a" }))).toBe(
      "  a: first\n  a: second\n",
    );
  });
});
