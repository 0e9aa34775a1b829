import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "./agent.js";
import { SessionBusyError } from "./errors/session-busy-error.js";
import { StoreError } from "./errors/store-error.js";
import { workingMemoryTools } from "./memory/working-memory-tools.js";
import { FileStore } from "./stores/file-store.js";
import { MemoryStore } from "./stores/memory-store.js";
import type { SessionStore } from "./stores/session-store.js";
import { ScriptedModel } from "./testing/scripted-model.js";
import { tool } from "./tools/tool.js";

const add = tool({
  name: "add",
  description: "adds",
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

describe("Agent sessions", () => {
  it("persists a run and continues it in a later run, without storing the system prompt", async () => {
    const store = new MemoryStore();
    const model = new ScriptedModel([{ text: "Hello Ada." }, { text: "You are Ada." }]);
    const agent = new Agent({ model, store, system: "Be nice." });
    await agent.run("I am Ada.", { sessionId: "s1" });
    const second = await agent.run("Who am I?", { sessionId: "s1" });
    expect(second.text).toBe("You are Ada.");
    expect(model.calls[1]?.request.messages.map((m) => `${m.role}:${m.content}`)).toEqual([
      "system:Be nice.",
      "user:I am Ada.",
      "assistant:Hello Ada.",
      "user:Who am I?",
    ]);
    const stored = await store.load("s1");
    expect(stored?.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("persists every completed step, in order, with tool calls and results", async () => {
    const store = new MemoryStore();
    const model = new ScriptedModel([
      { toolCalls: [{ id: "c1", name: "add", arguments: { a: 2, b: 3 } }] },
      { text: "5" },
    ]);
    await new Agent({ model, store, tools: [add] }).run("2+3?", { sessionId: "t" });
    const stored = (await store.load("t"))?.messages ?? [];
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(stored[1]).toMatchObject({ toolCalls: [{ id: "c1", name: "add", arguments: { a: 2, b: 3 } }] });
    expect(stored[2]).toMatchObject({ role: "tool", toolCallId: "c1", content: "5" });
  });

  it("rejects a concurrent run of the same session with SessionBusyError, never interleaving", async () => {
    const store = new MemoryStore();
    const model = new ScriptedModel([{ text: "slow", delayMs: 150 }, { text: "other session" }]);
    const agent = new Agent({ model, store });
    const first = agent.run("one", { sessionId: "busy" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(agent.run("two", { sessionId: "busy" })).rejects.toSatisfy(SessionBusyError.isInstance);
    expect((await agent.run("three", { sessionId: "elsewhere" })).text).toBe("other session");
    expect((await first).text).toBe("slow");
    const stored = (await store.load("busy"))?.messages ?? [];
    expect(stored.map((m) => m.content)).toEqual(["one", "slow"]);
  });

  it("with redact: true, redacts secrets in what it persists, not in the run itself", async () => {
    const store = new MemoryStore();
    const secret = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
    const model = new ScriptedModel([{ text: "Noted: mail ada@example.com" }]);
    const result = await new Agent({ model, store, redact: true }).run(`my key is ${secret}`, {
      sessionId: "r",
    });
    expect(result.messages.at(-2)?.content).toContain(secret);
    const stored = JSON.stringify((await store.load("r"))?.messages);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain("ada@example.com");
    expect(stored).toContain("REDACTED");
  });

  it("keeps working memory in the session state across runs", async () => {
    const store = new MemoryStore();
    const model = new ScriptedModel([
      { toolCalls: [{ id: "m1", name: "remember", arguments: { key: "favourite", value: "blue" } }] },
      { text: "Saved." },
      { toolCalls: [{ id: "m2", name: "recall", arguments: { key: "favourite" } }] },
      { text: "Blue." },
    ]);
    const agent = new Agent({ model, store, tools: workingMemoryTools() });
    await agent.run("Remember that my favourite colour is blue.", { sessionId: "mem" });
    expect((await store.load("mem"))?.state).toEqual({ memory: { favourite: "blue" } });
    const second = await agent.run("What is my favourite colour?", { sessionId: "mem" });
    expect(second.toolCalls[0]).toMatchObject({ name: "recall", ok: true, result: "blue" });
  });

  it("ends the run with a clear error, loop_end last, when the store fails to persist", async () => {
    const failing: SessionStore = Object.assign(new MemoryStore(), {
      append: () => Promise.reject(new StoreError({ message: "store down", operation: "append" })),
    });
    const model = new ScriptedModel([{ text: "hi" }]);
    const result = await new Agent({ model, store: failing }).run("hello", { sessionId: "x" });
    expect(result.stopReason).toBe("error");
    expect(StoreError.isInstance(result.error)).toBe(true);
    expect(result.events.at(-1)?.type).toBe("loop_end");
    // The lock was released: the session can be used again.
    const ok = await new Agent({ model: new ScriptedModel([{ text: "again" }]), store: failing }).run(
      "hello",
      {
        sessionId: "x",
      },
    );
    expect(ok.stopReason).toBe("error");
  });

  it("rejects with the load error, not a release error, when the store fails while opening the session", async () => {
    const store = new MemoryStore();
    const lock = store.lock.bind(store);
    const broken: SessionStore = Object.assign(store, {
      load: () => Promise.reject(new StoreError({ message: "cannot read the session", operation: "load" })),
      lock: async (id: string, options: { ttlMs: number }) => {
        const held = await lock(id, options);
        return held && { release: () => Promise.reject(new Error("connection lost")) };
      },
    });
    const model = new ScriptedModel([]);
    await expect(new Agent({ model, store: broken }).run("hello", { sessionId: "x" })).rejects.toThrow(
      "cannot read the session",
    );
    expect(model.calls).toHaveLength(0);
  });

  it("rejects sessionId without a store, and messages together with sessionId", async () => {
    const agent = new Agent({ model: new ScriptedModel([]) });
    await expect(agent.run("hi", { sessionId: "s" })).rejects.toThrow(/store/);
    const withStore = new Agent({ model: new ScriptedModel([]), store: new MemoryStore() });
    await expect(withStore.run("hi", { sessionId: "s", messages: [] })).rejects.toThrow(
      /either messages or sessionId/,
    );
  });
});

describe("Agent sessions on files, across processes", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it("continues a session written by another process", async () => {
    dir = await mkdtemp(join(tmpdir(), "agentloop-session-"));
    const { execFileSync } = await import("node:child_process");
    const script = `
      import { Agent, FileStore } from "agentloop";
      import { ScriptedModel } from "agentloop/testing";
      const agent = new Agent({ model: new ScriptedModel([{ text: "Stored in process A." }]), store: new FileStore({ dir: ${JSON.stringify(dir)} }) });
      const r = await agent.run("Remember the number 42.", { sessionId: "cross" });
      if (r.stopReason !== "completed") process.exit(1);
    `;
    execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: process.cwd(),
      stdio: "pipe",
    });
    const model = new ScriptedModel([{ text: "It was 42." }]);
    const result = await new Agent({ model, store: new FileStore({ dir }) }).run("Which number?", {
      sessionId: "cross",
    });
    expect(result.text).toBe("It was 42.");
    expect(model.calls[0]?.request.messages.map((m) => m.content)).toEqual([
      "Remember the number 42.",
      "Stored in process A.",
      "Which number?",
    ]);
  });
});
