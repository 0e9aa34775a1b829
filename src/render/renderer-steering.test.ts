import { describe, expect, it } from "vitest";
import type { AgentEventDataMap, AgentEventOf, AgentEventType } from "../loop/agent-event.js";
import { Renderer } from "./renderer.js";

function event<K extends AgentEventType>(type: K, data: AgentEventDataMap[K], turn = 1): AgentEventOf<K> {
  return { type, turn, timestamp: 1_000, data } as AgentEventOf<K>;
}

describe("Renderer: step control events", () => {
  it("shows a steering message, escaped; turn_start shows nothing", () => {
    let text = "";
    const renderer = new Renderer({ color: false, write: (chunk) => (text += chunk) });
    renderer.handle(event("turn_start", { model: "openai:gpt-4o" }, 2));
    expect(text).toBe("");
    renderer.handle(event("user_message", { content: "Do B \u001b[31minstead\u001b[0m." }));
    expect(text).toBe("› user: Do B \\e[31minstead\\e[0m.\n"); // no escape sequence reaches the terminal
  });
});
