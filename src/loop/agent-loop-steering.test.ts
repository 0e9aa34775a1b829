import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { validateHistory } from "../context/validate-history.js";
import { MemoryStore } from "../stores/memory-store.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { SteeringInbox } from "./steering-inbox.js";

/** A tool that waits until `release` is called (so a test can act while it runs). */
function gate() {
  let release: () => void = () => undefined;
  let started: () => void = () => undefined;
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  const waiter = tool({
    name: "wait",
    description: "waits",
    parameters: z.object({}),
    execute: async () => {
      started();
      await done;
      return "waited";
    },
  });
  return { waiter, running, release };
}

const waitCall = { id: "w1", name: "wait", arguments: {} };

describe("steering: messages sent to a running agent", () => {
  it("stream.send adds a user message after the turn's tool results, before the next model call", async () => {
    const { waiter, running, release } = gate();
    const model = new ScriptedModel([{ toolCalls: [waitCall] }, { text: "Switched to B." }]);
    const stream = new Agent({ model, tools: [waiter] }).stream("Do A");
    const types: string[] = [];
    const consume = (async () => {
      for await (const event of stream) types.push(event.type);
    })();
    await running;
    const delivered = stream.send("Actually, do B.");
    release();
    await consume;
    const result = await stream.result;
    expect(await delivered).toBe(true);
    expect(result.stopReason).toBe("completed");
    expect(model.calls[1]?.request.messages.slice(-3)).toEqual([
      { role: "assistant", content: "", toolCalls: [expect.objectContaining({ id: "w1" })] },
      { role: "tool", toolCallId: "w1", toolName: "wait", content: "waited" },
      { role: "user", content: "Actually, do B." },
    ]);
    expect(types.filter((type) => !type.endsWith("_delta"))).toEqual([
      "loop_start",
      "turn_start",
      "model_call",
      "error", // the scripted model has no price
      "action",
      "observation",
      "user_message",
      "turn_start",
      "model_call",
      "loop_end",
    ]);
    expect(result.events.find((e) => e.type === "user_message")).toMatchObject({
      turn: 1,
      data: { content: "Actually, do B." },
    });
    expect(validateHistory(result.messages)).toEqual([]);
  });

  it("a message sent while the model writes its final answer keeps the run going", async () => {
    const model = new ScriptedModel([{ text: "Here is a long answer about A" }, { text: "Now about B." }], {
      streamDelayMs: 5,
    });
    const stream = new Agent({ model }).stream("Tell me about A");
    let delivered: Promise<boolean> | undefined;
    for await (const event of stream) {
      if (event.type === "text_delta" && delivered === undefined) delivered = stream.send("And B?");
    }
    const result = await stream.result;
    expect(await delivered).toBe(true);
    expect(model.calls).toHaveLength(2);
    expect(result.text).toBe("Now about B.");
    expect(result.messages.map((m) => `${m.role}:${m.content}`)).toEqual([
      "user:Tell me about A",
      "assistant:Here is a long answer about A",
      "user:And B?",
      "assistant:Now about B.",
    ]);
  });

  it("a message sent after the run ended resolves false; an empty one throws", async () => {
    const stream = new Agent({ model: new ScriptedModel([{ text: "done" }]) }).stream("go");
    await stream.result;
    await expect(stream.send("too late")).resolves.toBe(false);
    expect(() => stream.send("")).toThrow(/Invalid message: the message is empty/);
    expect(() => stream.send(42 as never)).toThrow(/Invalid message/);
  });

  it("a message left waiting when the run stops (a limit, an abort) resolves false", async () => {
    const { waiter, running, release } = gate();
    const model = new ScriptedModel([{ toolCalls: [waitCall] }]);
    const stream = new Agent({ model, tools: [waiter], limits: { maxTurns: 1 } }).stream("go");
    const result = stream.result;
    await running;
    const delivered = stream.send("more");
    release();
    expect((await result).stopReason).toBe("max_turns");
    expect(await delivered).toBe(false);
    expect((await result).messages.some((m) => m.role === "user" && m.content === "more")).toBe(false);
  });

  it("agent.run takes an inbox (content parts too); an inbox serves one run", async () => {
    const steering = new SteeringInbox();
    let delivered: Promise<boolean> | undefined;
    const note = tool({
      name: "note",
      description: "note",
      parameters: z.object({}),
      execute: () => {
        delivered = steering.send([{ type: "text", text: "Use metric units." }]);
        return "noted";
      },
    });
    const model = new ScriptedModel([
      { toolCalls: [{ id: "n", name: "note", arguments: {} }] },
      { text: "20 °C" },
    ]);
    const agent = new Agent({ model, tools: [note] });
    const result = await agent.run("Weather?", { steering });
    expect(await delivered).toBe(true);
    expect(model.calls[1]?.request.messages.at(-1)).toEqual({
      role: "user",
      content: [{ type: "text", text: "Use metric units." }],
    });
    expect(result.events.find((e) => e.type === "user_message")?.data).toEqual({
      content: "Use metric units.",
    });
    expect(steering.closed).toBe(true);
    await expect(steering.send("late")).resolves.toBe(false);
    await expect(agent.run("again", { steering })).rejects.toThrow(/a steering inbox serves one run/);
  });

  it("a message sent before the run starts is added before its first model call", async () => {
    const steering = new SteeringInbox();
    const delivered = steering.send("Be terse.");
    expect(steering.pending).toBe(1);
    const model = new ScriptedModel([{ text: "ok" }]);
    await new Agent({ model, system: "S" }).run("go", { steering });
    expect(await delivered).toBe(true);
    expect(model.calls[0]?.request.messages.map((m) => m.content)).toEqual(["S", "go", "Be terse."]);
  });

  it("a run that cannot start reports its inbox's messages as not delivered", async () => {
    const steering = new SteeringInbox();
    const delivered = steering.send("hello");
    const agent = new Agent({ model: new ScriptedModel([]), store: new MemoryStore() });
    // A session run and `messages` together: refused before anything starts.
    await expect(agent.run("go", { steering, sessionId: "s", messages: [] })).rejects.toThrow(
      /Invalid messages/,
    );
    expect(await delivered).toBe(false);
  });

  it("in a session, the message is stored with the history", async () => {
    const { waiter, running, release } = gate();
    const store = new MemoryStore();
    const model = new ScriptedModel([{ toolCalls: [waitCall] }, { text: "B done." }]);
    const stream = new Agent({ model, tools: [waiter], store }).stream("Do A", { sessionId: "chat" });
    const result = stream.result;
    await running;
    const delivered = stream.send("Do B instead.");
    release();
    await result;
    expect(await delivered).toBe(true);
    const stored = (await store.load("chat"))?.messages ?? [];
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user", "assistant"]);
    expect(stored[3]).toEqual({ role: "user", content: "Do B instead." });
    expect(validateHistory(stored)).toEqual([]);
  });
});
