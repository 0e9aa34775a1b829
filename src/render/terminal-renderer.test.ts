import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../loop/agent-event.js";
import { shouldUseColor } from "./ansi-style.js";
import { formatCost, formatDuration, truncateText } from "./format-values.js";
import { createJsonLinesRenderer } from "./json-lines-renderer.js";
import { createTerminalRenderer } from "./terminal-renderer.js";

/** A stream double that keeps what is written. */
function stream(isTTY: boolean): { write(text: string): void; isTTY: boolean; text: string } {
  return {
    isTTY,
    text: "",
    write(chunk: string) {
      this.text += chunk;
    },
  };
}

const events: AgentEvent[] = [
  { type: "loop_start", turn: 0, timestamp: 0, data: { task: "Say hi", model: "openai:gpt-4o-mini" } },
  { type: "text_delta", turn: 1, timestamp: 5, data: { delta: 'Hi "there"\n' } },
  {
    type: "model_call",
    turn: 1,
    timestamp: 6,
    data: {
      model: "openai:gpt-4o-mini",
      finishReason: { unified: "stop", raw: "stop" },
      usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
      latencyMs: 6,
      costUsd: 0.0000017,
      priced: true,
    },
  },
  { type: "loop_end", turn: 1, timestamp: 7, data: { stopReason: "completed", text: 'Hi "there"\n' } },
];

describe("shouldUseColor", () => {
  it("colours a terminal unless NO_COLOR is set", () => {
    expect(shouldUseColor({ stream: { isTTY: true }, env: {} })).toBe(true);
    expect(shouldUseColor({ stream: { isTTY: true }, env: { NO_COLOR: "1" } })).toBe(false);
    expect(shouldUseColor({ stream: { isTTY: true }, env: { NO_COLOR: "" } })).toBe(true);
    expect(shouldUseColor({ stream: { isTTY: true }, env: { TERM: "dumb" } })).toBe(false);
  });

  it("does not colour a pipe unless FORCE_COLOR is set", () => {
    expect(shouldUseColor({ stream: { isTTY: false }, env: {} })).toBe(false);
    expect(shouldUseColor({ stream: { isTTY: false }, env: { FORCE_COLOR: "1" } })).toBe(true);
    expect(shouldUseColor({ stream: { isTTY: true }, env: { FORCE_COLOR: "0" } })).toBe(false);
    expect(shouldUseColor({ stream: { isTTY: false }, env: { FORCE_COLOR: "1", NO_COLOR: "1" } })).toBe(
      false,
    );
  });
});

describe("createTerminalRenderer", () => {
  it("colours a terminal and respects NO_COLOR", () => {
    const tty = stream(true);
    const renderer = createTerminalRenderer({ stream: tty, env: {} });
    for (const e of events) renderer.handle(e);
    expect(tty.text).toContain("\u001b[");

    const noColor = stream(true);
    const plain = createTerminalRenderer({ stream: noColor, env: { NO_COLOR: "1" } });
    for (const e of events) plain.handle(e);
    expect(noColor.text).not.toContain("\u001b[");
    expect(noColor.text).toContain("■ completed · 1 turn · 5 tokens (3 in / 2 out) · $0.000002 · 7 ms");
  });

  it("writes plain text to a pipe; the color option wins", () => {
    const pipe = stream(false);
    const renderer = createTerminalRenderer({ stream: pipe, env: {} });
    for (const e of events) renderer.handle(e);
    expect(pipe.text).not.toContain("\u001b[");
    const forced = stream(false);
    createTerminalRenderer({ stream: forced, color: true, env: { NO_COLOR: "1" } }).handle(
      events[0] as AgentEvent,
    );
    expect(forced.text).toContain("\u001b[1m");
  });
});

describe("createJsonLinesRenderer", () => {
  it("writes one parseable JSON object per event per line, ending with loop_end", () => {
    const out = stream(false);
    const renderer = createJsonLinesRenderer({ stream: out });
    for (const e of events) renderer.handle(e);
    const lines = out.text.trimEnd().split("\n");
    expect(lines).toHaveLength(events.length);
    const parsed = lines.map((line) => JSON.parse(line) as AgentEvent);
    expect(parsed).toEqual(events);
    expect(parsed.at(-1)?.type).toBe("loop_end");
  });

  it("still applies rules (e.g. dropping text deltas)", () => {
    const out = stream(false);
    const renderer = createJsonLinesRenderer({ stream: out }).onEvent("text_delta", () => undefined);
    for (const e of events) renderer.handle(e);
    expect(out.text.trimEnd().split("\n")).toHaveLength(events.length - 1);
  });
});

describe("format values", () => {
  it("formats durations, costs and truncated text", () => {
    expect(formatDuration(412)).toBe("412 ms");
    expect(formatDuration(1_440)).toBe("1.4 s");
    expect(formatDuration(125_000)).toBe("2 min 05 s");
    expect(formatCost(0)).toBe("$0");
    expect(formatCost(0.0000213)).toBe("$0.000021");
    expect(formatCost(0.0123)).toBe("$0.0123");
    expect(formatCost(1.5)).toBe("$1.50");
    expect(formatCost(1e-9)).toBe("$1.0e-9");
    expect(truncateText({ text: "a\n  b", maxChars: 100 })).toBe("a ⏎ b");
    expect(truncateText({ text: "abcdef", maxChars: 3 })).toBe("abc… (+3 chars)");
  });
});
