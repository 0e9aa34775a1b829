import { describe, expect, it } from "vitest";
import type { AgentEvent, AgentEventDataMap, AgentEventOf, AgentEventType } from "../loop/agent-event.js";
import { stripAnsi } from "./ansi-style.js";
import { createJsonLinesRenderer } from "./json-lines-renderer.js";
import { Renderer } from "./renderer.js";

function event<K extends AgentEventType>(type: K, data: AgentEventDataMap[K], turn = 1): AgentEventOf<K> {
  return { type, turn, timestamp: 1_000, data } as AgentEventOf<K>;
}

function collecting(color = false): { renderer: Renderer; output: () => string } {
  let text = "";
  const renderer = new Renderer({ color, write: (chunk) => (text += chunk) });
  return { renderer, output: () => text };
}

const reasoning = (delta: string, turn = 1) => event("reasoning_delta", { delta }, turn);
const toolDelta = (delta: string) => event("tool_call_delta", { toolCallId: "c1", toolName: "calc", delta });

describe("Renderer: streamed reasoning and tool-call fragments", () => {
  it("prints reasoning dimmed after a 'thinking:' label, then the answer on its own line", () => {
    const { renderer, output } = collecting(true);
    renderer.handle(event("loop_start", { task: "t", model: "m" }, 0));
    renderer.handle(reasoning("Let me "));
    renderer.handle(reasoning("think."));
    renderer.handle(event("text_delta", { delta: "Hi" }));
    renderer.handle(event("text_delta", { delta: "!" }));
    const text = output();
    expect(stripAnsi(text)).toBe("▶ t · m\nthinking: Let me think.\nHi!");
    expect(text).toContain("\u001b[2mthinking: Let me \u001b[22m");
    expect(text).toContain("\u001b[2mthink.\u001b[22m");
  });

  it("labels reasoning again after other output, and starts it on a fresh line", () => {
    const { renderer, output } = collecting();
    renderer.handle(event("text_delta", { delta: "Looking." }));
    renderer.handle(reasoning("more"));
    renderer.handle(event("action", { toolCallId: "c1", toolName: "calc", arguments: {} }));
    renderer.handle(reasoning("again", 2));
    expect(output()).toBe("Looking.\nthinking: more\n→ calc({})\nthinking: again");
  });

  it("shows nothing for tool_call_delta and empty reasoning, and does not break the line state", () => {
    const { renderer, output } = collecting();
    renderer.handle(event("text_delta", { delta: "a" }));
    expect(renderer.render(toolDelta('{"x":'))).toBeUndefined();
    expect(renderer.render(reasoning(""))).toBeUndefined();
    renderer.handle(event("text_delta", { delta: "b" }));
    expect(output()).toBe("ab");
    expect(renderer.isMidLine).toBe(true);
  });

  it("never throws on malformed reasoning or tool-call events", () => {
    const { renderer } = collecting(true);
    const bad = [
      { type: "reasoning_delta", turn: 1, timestamp: 1, data: { delta: 42 } },
      { type: "reasoning_delta", turn: 1, timestamp: 1, data: null },
      { type: "tool_call_delta", turn: 1, timestamp: 1, data: undefined },
    ] as unknown as AgentEvent[];
    for (const e of bad) expect(() => renderer.handle(e)).not.toThrow();
  });

  it("escapes control characters in reasoning", () => {
    const { renderer } = collecting();
    expect(renderer.render(reasoning("\u001b[31mred"))).not.toContain("\u001b[31m");
  });

  it("json_lines writes both events as JSON", () => {
    let text = "";
    const renderer = createJsonLinesRenderer({
      stream: { write: (chunk: string) => (text += chunk) } as never,
    });
    renderer.handle(reasoning("hm"));
    renderer.handle(toolDelta("{"));
    const lines = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as AgentEvent);
    expect(lines.map((e) => e.type)).toEqual(["reasoning_delta", "tool_call_delta"]);
  });
});
