import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../loop/agent-event.js";
import { createRunView } from "./create-run-view.js";

function sink(): { write(text: string): boolean; isTTY: boolean; text: string } {
  return {
    isTTY: false,
    text: "",
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
  };
}

const events: AgentEvent[] = [
  { type: "loop_start", turn: 0, timestamp: 0, data: { task: "t", model: "openai:m" } },
  { type: "reasoning_delta", turn: 1, timestamp: 1, data: { delta: "pondering" } },
  {
    type: "tool_call_delta",
    turn: 1,
    timestamp: 1,
    data: { toolCallId: "c1", toolName: "calc", delta: "{" },
  },
  { type: "text_delta", turn: 1, timestamp: 2, data: { delta: "42" } },
  { type: "loop_end", turn: 1, timestamp: 3, data: { stopReason: "completed", text: "42" } },
];

describe("createRunView: streamed reasoning and tool-call fragments", () => {
  it("--quiet prints only the answer", () => {
    const stdout = sink();
    const view = createRunView({
      args: { json: false, stream: true, quiet: true, color: false, model: "openai:m" },
      io: { stdout, stderr: sink(), env: {} },
    });
    for (const event of events) view.onEvent(event);
    expect(stdout.text).toBe("42\n");
  });

  it("the terminal view shows the reasoning labelled, then the answer, and no fragments", () => {
    const stdout = sink();
    const view = createRunView({
      args: { json: false, stream: true, quiet: false, color: false, model: "openai:m" },
      io: { stdout, stderr: sink(), env: {} },
    });
    for (const event of events) view.onEvent(event);
    expect(stdout.text).toContain("thinking: pondering\n42");
    expect(stdout.text).not.toContain("{");
  });
});
