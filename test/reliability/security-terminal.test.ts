/**
 * Issue #15, security: model and tool text never reaches the terminal as control sequences. The terminal
 * renderer escapes every event's text before rendering (agentloop's own colours are added afterwards and
 * kept); JSON lines escape what JSON.stringify leaves raw; the CLI's approval prompt escapes the call.
 */

import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { askApprovals } from "../../src/cli/ask-approvals.js";
import { LineReader } from "../../src/cli/line-reader.js";
import type { AgentEvent } from "../../src/loop/agent-event.js";
import { escapeTerminalText } from "../../src/render/escape-terminal-text.js";
import { createJsonLinesRenderer } from "../../src/render/json-lines-renderer.js";
import { createTerminalRenderer } from "../../src/render/terminal-renderer.js";

/** Every kind of sequence a hostile text may carry, with what it must print as. */
const SEQUENCES: ReadonlyArray<[string, string, string]> = [
  ["OSC 52 clipboard write (BEL)", "\u001b]52;c;Y3VybCBldmlsfHNo\u0007", "\\e]52;c;Y3VybCBldmlsfHNo\\x07"],
  ["OSC 52 clipboard write (ST)", "\u001b]52;c;eA==\u001b\\", "\\e]52;c;eA==\\e\\"],
  ["title change", "\u001b]0;pwned\u0007", "\\e]0;pwned\\x07"],
  ["cursor up + erase line (CSI)", "\u001b[1A\u001b[2K", "\\e[1A\\e[2K"],
  ["SGR conceal", "\u001b[8mhidden\u001b[0m", "\\e[8mhidden\\e[0m"],
  ["carriage-return overwrite", "rm -rf /\rls", "rm -rf /\\rls"],
  ["C1 CSI", "\u009b2J", "\\x9b2J"],
  ["C1 OSC", "\u009d0;t\u009c", "\\x9d0;t\\x9c"],
  ["BEL", "ding\u0007", "ding\\x07"],
  ["backspace", "safe\b\b\b\bEVIL", "safe\\b\\b\\b\\bEVIL"],
  ["DEL", "a\u007fb", "a\\x7fb"],
  ["bidi override", "evil\u202e\u2066txt.exe", "evil\\u202e\\u2066txt.exe"],
];

function stream(): { write(text: string): void; isTTY: boolean; text: string } {
  return {
    isTTY: true,
    text: "",
    write(chunk: string) {
      this.text += chunk;
    },
  };
}

/** agentloop's own SGR colour codes. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
const STYLING = /\u001b\[(?:1|2|22|3[1-9])m/g;
/** Control characters other than tab and newline, C1, bidi overrides. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Control characters other than agentloop's own colour codes, tab and newline. */
function foreignControls(text: string): string[] {
  return [...text.replace(STYLING, "").matchAll(CONTROL)].map((match) => match[0]);
}

function eventsCarrying(payload: string): AgentEvent[] {
  const at = { turn: 1, timestamp: 0 };
  return [
    { type: "loop_start", ...at, data: { task: `task ${payload}`, model: "m" } },
    { type: "text_delta", ...at, data: { delta: `streamed ${payload}` } },
    { type: "thought", turn: 2, timestamp: 0, data: { content: `thought ${payload}` } },
    {
      type: "action",
      ...at,
      data: { toolCallId: "c", toolName: "t", arguments: { path: payload, [payload]: 1 } },
    },
    { type: "action", ...at, data: { toolCallId: "c", toolName: "t", arguments: `raw ${payload}` } },
    {
      type: "observation",
      ...at,
      data: { toolCallId: "c", toolName: "t", result: payload, ok: true, durationMs: 1 },
    },
    {
      type: "approval_requested",
      ...at,
      data: { calls: [{ toolCallId: "c", toolName: "t", arguments: { p: payload } }] },
    },
    { type: "error", ...at, data: { name: "E", message: `message ${payload}`, fatal: false } },
    {
      type: "loop_end",
      turn: 3,
      timestamp: 0,
      data: {
        stopReason: "completed",
        text: `answer ${payload}`,
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      },
    },
  ] as AgentEvent[];
}

describe("escapeTerminalText", () => {
  it.each(SEQUENCES)("%s is escaped to visible text", (_name, raw, shown) => {
    expect(escapeTerminalText(raw)).toBe(shown);
  });

  it("keeps ordinary text (newlines, tabs, Unicode, CRLF as LF) and returns it unchanged", () => {
    const text = "line 1\n\tline 2 — café 😀";
    expect(escapeTerminalText(text)).toBe(text);
    expect(escapeTerminalText("a\r\nb")).toBe("a\nb");
  });

  it("is linear: 1 MB of control characters in well under a second", () => {
    const big = "\u001b]52;c;".repeat(140_000);
    const started = performance.now();
    expect(escapeTerminalText(big).length).toBeGreaterThan(big.length);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("the terminal renderer", () => {
  it.each(SEQUENCES)(
    "prints %s in every event as visible text, keeping its own colours",
    (_name, raw, shown) => {
      const out = stream();
      const renderer = createTerminalRenderer({ stream: out, color: true, maxResultChars: 10_000 });
      for (const event of eventsCarrying(raw)) renderer.handle(event);
      expect(foreignControls(out.text)).toEqual([]);
      expect(out.text).toContain(shown.replace(/\n/g, ""));
      expect(out.text).toContain("\u001b[36m→ t\u001b[39m"); // agentloop's own styling survives
    },
  );

  it("a user rule gets the escaped event too", () => {
    const out = stream();
    const renderer = createTerminalRenderer({ stream: out, color: false });
    renderer.onTool("t", (event) =>
      event.type === "observation" ? `got ${event.data.result}\n` : undefined,
    );
    renderer.handle(eventsCarrying("\u001b]0;x\u0007")[5] as AgentEvent);
    expect(out.text).toBe("got \\e]0;x\\x07\n");
  });
});

describe("JSON lines", () => {
  it("escape the C1 and bidi characters JSON.stringify leaves raw; the data is unchanged", () => {
    const out = stream();
    const renderer = createJsonLinesRenderer({ stream: out });
    for (const [, raw] of SEQUENCES) renderer.handle(eventsCarrying(raw)[5] as AgentEvent);
    expect(foreignControls(out.text)).toEqual([]);
    const results = out.text
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { data: { result: string } }).data.result);
    expect(results).toEqual(SEQUENCES.map(([, raw]) => raw));
  });
});

describe("the CLI approval prompt", () => {
  it.each(SEQUENCES)("shows %s in a pending call as visible text", async (_name, raw) => {
    const err = stream();
    const reader = new LineReader({ input: Readable.from(["n\n"]) });
    await askApprovals({
      calls: [
        {
          toolCallId: "c",
          toolName: "write_file",
          arguments: raw.includes("\u001b[1A") ? raw : { path: raw, content: raw },
        },
      ],
      reader,
      stderr: err,
      yes: false,
      echo: true,
    });
    reader.close();
    expect(foreignControls(err.text)).toEqual([]);
  });
});

describe("one-line call renderings cannot hide where a call acts", () => {
  it("the renderer shows path-like fields first, before a long field is cut", () => {
    const out = stream();
    const renderer = createTerminalRenderer({ stream: out, color: false });
    const args = { content: "A".repeat(10_000), path: "deep/target.txt" };
    const at = { turn: 1, timestamp: 0 };
    renderer.handle({
      type: "approval_requested",
      ...at,
      data: { calls: [{ toolCallId: "c", toolName: "write_file", arguments: args }] },
    });
    renderer.handle({
      type: "action",
      ...at,
      data: { toolCallId: "c", toolName: "write_file", arguments: args },
    });
    const lines = out.text.trim().split("\n");
    expect(lines).toHaveLength(2);
    for (const line of lines)
      expect(line).toMatch(/write_file\(\{"path":"deep\/target\.txt","content":"AAAA/);
  });
});

describe("one-line texts (truncateText: trace timelines, summaries)", () => {
  it.each(SEQUENCES)("%s is escaped", async (_name, raw) => {
    const { truncateText } = await import("../../src/render/format-values.js");
    expect(foreignControls(truncateText({ text: `x ${raw} y`, maxChars: 1000 }))).toEqual([]);
  });
});
