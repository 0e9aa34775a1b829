import { describe, expect, it } from "vitest";
import type { Message } from "../models/message.js";
import { createLoopState } from "./loop-state.js";

describe("createLoopState", () => {
  it("holds the caller's array itself, with no turns, no usage and no text", () => {
    const messages: Message[] = [{ role: "user", content: "go" }];
    const state = createLoopState({ messages, resumed: false });
    expect(state.messages).toBe(messages);
    expect(state).toMatchObject({ turns: 0, text: "", modelCalled: false });
    expect(state.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
  });

  it("counts a resumed run as having called the model (its end is persisted)", () => {
    expect(createLoopState({ messages: [], resumed: true }).modelCalled).toBe(true);
  });
});
