import { describe, expect, it } from "vitest";
import type { AgentEventDataMap, AgentEventOf, AgentEventType } from "../loop/agent-event.js";
import { Renderer } from "./renderer.js";

function event<K extends AgentEventType>(type: K, data: AgentEventDataMap[K], turn = 1): AgentEventOf<K> {
  return { type, turn, timestamp: 1_000, data } as AgentEventOf<K>;
}

function render(...events: AgentEventOf<AgentEventType>[]): string {
  let text = "";
  const renderer = new Renderer({ color: false, write: (chunk) => (text += chunk) });
  for (const e of events) renderer.handle(e);
  return text;
}

describe("Renderer: guardrails, fallbacks and typed answers", () => {
  it("shows which guardrail blocked and why (escaped)", () => {
    const text = render(
      event("guardrail", {
        kind: "tool",
        name: "secrets",
        reason: "an API key \u001b[2Jin the result",
        toolCallId: "call_1",
      }),
    );
    expect(text).toBe("■ tool guardrail secrets (call_1) blocked: an API key \\e[2Jin the result\n");
  });

  it("shows a model fallback and an invalid typed answer", () => {
    const text = render(
      event("model_fallback", {
        from: "openai:gpt-4o-mini",
        to: "anthropic:claude-sonnet-4-5",
        error: "HTTP 503",
      }),
      event("output_invalid", { errors: ['"temperature": expected number, received string'], retry: true }),
    );
    expect(text).toBe(
      "⇄ openai:gpt-4o-mini failed (HTTP 503); falling back to anthropic:claude-sonnet-4-5\n" +
        '! typed answer invalid (sent back to the model): "temperature": expected number, received string\n',
    );
  });
});
