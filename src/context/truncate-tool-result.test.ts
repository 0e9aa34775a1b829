import { describe, expect, it } from "vitest";
import type { ToolMessage } from "../models/message.js";
import { truncateToolResult } from "./truncate-tool-result.js";

const tool = (content: string): ToolMessage => ({
  role: "tool",
  toolCallId: "c",
  toolName: "read",
  content,
  isError: true,
});

describe("truncateToolResult", () => {
  it("keeps the first maxChars characters and says how many were cut, in a new object", () => {
    const message = tool("abcdefghij");
    const cut = truncateToolResult({ message, maxChars: 4 });
    expect(cut).not.toBe(message);
    expect(cut).toEqual({
      ...message,
      content: "abcd\n[… 6 more characters truncated to fit the context window]",
    });
    expect(message.content).toBe("abcdefghij");
  });

  it("returns the same object when nothing needs cutting", () => {
    const message = tool("short");
    expect(truncateToolResult({ message, maxChars: 5 })).toBe(message);
  });

  it("does not truncate its own output again, and adds up when cutting further", () => {
    const once = truncateToolResult({ message: tool("x".repeat(100)), maxChars: 40 });
    expect(truncateToolResult({ message: once, maxChars: 40 })).toBe(once);
    expect(truncateToolResult({ message: once, maxChars: 60 })).toBe(once);
    const twice = truncateToolResult({ message: once, maxChars: 10 });
    expect(twice.content).toBe(
      `${"x".repeat(10)}\n[… 90 more characters truncated to fit the context window]`,
    );
  });

  it("never splits a surrogate pair", () => {
    const cut = truncateToolResult({ message: tool("ab🚀cd"), maxChars: 3 });
    expect(String(cut.content).startsWith("ab\n")).toBe(true);
    expect(cut.content).toContain("4 more characters");
  });
});
