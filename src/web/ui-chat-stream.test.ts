import { lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { MemoryJournal } from "../durable/memory-journal.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { MemoryStore } from "../stores/memory-store.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { tool } from "../tools/tool.js";
import { TestChat } from "./test-utils/test-chat.js";
import { readUIChatRequest } from "./ui-chat-request.js";
import { createUIChatResponse, type StreamUIChatOptions } from "./ui-chat-stream.js";

/** An agent that checks the weather and deletes a file (gated), and what it ran. */
function setup(options: { store?: boolean; journal?: boolean } = {}) {
  const ran: string[] = [];
  const weather = tool({
    name: "get_weather",
    description: "The weather in a city",
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => {
      ran.push(`weather ${city}`);
      return `sunny in ${city}`;
    },
  });
  const remove = tool({
    name: "delete_file",
    description: "Deletes a file",
    parameters: z.object({ path: z.string() }),
    needsApproval: true,
    execute: ({ path }) => {
      ran.push(`delete ${path}`);
      return `deleted ${path}`;
    },
  });
  const model = new ScriptedModel([
    {
      text: "Checking first.",
      toolCalls: [
        { id: "c1", name: "get_weather", arguments: { city: "Paris" } },
        { id: "c2", name: "delete_file", arguments: { path: "/tmp/x" } },
      ],
    },
    { text: "All done." },
  ]);
  const agent = new Agent({
    model,
    tools: [weather, remove],
    ...(options.store === true && { store: new MemoryStore() }),
    ...(options.journal === true && { journal: new MemoryJournal() }),
  });
  return { agent, model, ran };
}

/** A route handler: reads the request, answers with the chat's stream; a bad request is a 400. */
function route(options: Omit<StreamUIChatOptions, "chat" | "sessionId"> & { session?: boolean }) {
  const seen: string[] = [];
  const handler = async (request: Request): Promise<Response> => {
    try {
      const chat = await readUIChatRequest(request);
      seen.push(chat.approvals === undefined ? "message" : `approvals ${JSON.stringify(chat.approvals)}`);
      return createUIChatResponse({
        ...options,
        chat,
        ...(options.session === true && { sessionId: `user-1:${chat.id}` }),
        signal: request.signal,
      });
    } catch (error) {
      if (InvalidArgumentError.isInstance(error)) return new Response(error.message, { status: 400 });
      throw error;
    }
  };
  return { handler, seen };
}

function toolPart(message: UIMessage | undefined, name: string): Record<string, unknown> | undefined {
  return message?.parts.find((part) => part.type === `tool-${name}`) as Record<string, unknown> | undefined;
}

const texts = (message: UIMessage | undefined) =>
  (message?.parts ?? [])
    .filter((part) => part.type === "text")
    .map((part) => (part as { text: string }).text);

describe("streamUIChat with the AI SDK's chat client (DefaultChatTransport, the class behind useChat)", () => {
  for (const mode of ["session", "durable"] as const) {
    it(`${mode}: a gated call asks for approval, the approval resumes the run and the call runs`, async () => {
      const { agent, model, ran } = setup({ store: mode === "session", journal: mode === "durable" });
      const { handler, seen } = route({ agent, session: mode === "session", durable: mode === "durable" });
      const chat = new TestChat({
        handler,
        sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
      });
      await chat.sendMessage({ text: "Delete /tmp/x if it is sunny" });
      await chat.idle();
      expect(chat.error).toBeUndefined();
      const paused = chat.lastMessage;
      expect(texts(paused)).toEqual(["Checking first."]);
      expect(toolPart(paused, "delete_file")).toMatchObject({
        state: "approval-requested",
        input: { path: "/tmp/x" },
        approval: { id: "c2" },
      });
      // The ungated call of the paused turn waits with it: approved already (automatic), not run yet.
      expect(toolPart(paused, "get_weather")).toMatchObject({
        state: "approval-responded",
        approval: { id: "c1", approved: true, isAutomatic: true },
      });
      expect(ran).toEqual([]);
      if (mode === "durable") expect(paused?.id).toMatch(/^run-/);

      await chat.addToolApprovalResponse({ id: "c2", approved: true });
      await chat.idle();
      expect(chat.error).toBeUndefined();
      expect(seen).toEqual(["message", 'approvals {"approve":["c2"],"deny":[]}']);
      expect(ran.sort()).toEqual(["delete /tmp/x", "weather Paris"]);
      // The same assistant message goes on: the calls' outputs, then the answer.
      expect(chat.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
      const done = chat.lastMessage;
      expect(done?.id).toBe(paused?.id);
      expect(toolPart(done, "delete_file")).toMatchObject({
        state: "output-available",
        output: "deleted /tmp/x",
      });
      expect(toolPart(done, "get_weather")).toMatchObject({
        state: "output-available",
        output: "sunny in Paris",
      });
      expect(texts(done)).toEqual(["Checking first.", "All done."]);
      expect(model.calls).toHaveLength(2);
    });
  }

  it("a gated call inside a sub-agent gets a tool part of its own (toolMetadata.agent), and its output once approved", async () => {
    const ran: string[] = [];
    const remove = tool({
      name: "delete_file",
      description: "Deletes a file",
      parameters: z.object({ path: z.string() }),
      needsApproval: true,
      execute: ({ path }) => {
        ran.push(path);
        return `deleted ${path}`;
      },
    });
    const janitor = new Agent({
      name: "janitor",
      model: new ScriptedModel([
        { toolCalls: [{ id: "s1", name: "delete_file", arguments: { path: "/a" } }] },
        { text: "cleaned" },
      ]),
      tools: [remove],
    });
    const lead = new Agent({
      name: "lead",
      model: new ScriptedModel([
        { toolCalls: [{ id: "m1", name: "clean", arguments: { input: "clean /a" } }] },
        { text: "All clean." },
      ]),
      tools: [janitor.asTool({ name: "clean", description: "Cleans up" })],
      store: new MemoryStore(),
    });
    const { handler } = route({ agent: lead, session: true });
    const chat = new TestChat({
      handler,
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    await chat.sendMessage({ text: "Clean /a" });
    await chat.idle();
    expect(toolPart(chat.lastMessage, "delete_file")).toMatchObject({
      state: "approval-requested",
      toolMetadata: { agent: "lead/janitor" },
      approval: { id: "s1" },
    });
    expect(toolPart(chat.lastMessage, "clean")).toMatchObject({ state: "approval-responded" });
    await chat.addToolApprovalResponse({ id: "s1", approved: true });
    await chat.idle();
    expect(chat.error).toBeUndefined();
    expect(ran).toEqual(["/a"]);
    expect(toolPart(chat.lastMessage, "delete_file")).toMatchObject({
      state: "output-available",
      output: "deleted /a",
    });
    expect(toolPart(chat.lastMessage, "clean")).toMatchObject({
      state: "output-available",
      output: "cleaned",
    });
    expect(texts(chat.lastMessage)).toEqual(["All clean."]);
  });

  it("a denied call is not run: its part is output-denied and the model is told", async () => {
    const { agent, model, ran } = setup({ store: true });
    const { handler } = route({ agent, session: true });
    const chat = new TestChat({
      handler,
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    await chat.sendMessage({ text: "Delete /tmp/x" });
    await chat.idle();
    await chat.addToolApprovalResponse({ id: "c2", approved: false, reason: "no" });
    await chat.idle();
    expect(ran).toEqual(["weather Paris"]);
    expect(toolPart(chat.lastMessage, "delete_file")).toMatchObject({ state: "output-denied" });
    const told = model.calls[1]?.request.messages.find((m) => m.role === "tool" && m.toolCallId === "c2");
    expect(told).toMatchObject({ isError: true, content: expect.stringContaining("denied") });
  });

  it("without a session or durable runs, approval responses are refused (400): the browser's history is not trusted", async () => {
    const { agent, ran } = setup();
    const { handler } = route({ agent });
    const chat = new TestChat({
      handler,
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    await chat.sendMessage({ text: "Delete /tmp/x" });
    await chat.idle();
    await chat.addToolApprovalResponse({ id: "c2", approved: true });
    await chat.idle();
    expect(chat.status).toBe("error");
    expect(chat.error?.message).toContain("approval responses need a session");
    expect(ran).toEqual([]);
  });

  it("without a session, the next message continues the history the client sent", async () => {
    const model = new ScriptedModel([{ text: "Hello Ada." }, { text: "You are Ada." }]);
    const { handler } = route({ agent: new Agent({ model }) });
    const chat = new TestChat({ handler });
    await chat.sendMessage({ text: "I am Ada." });
    await chat.idle();
    await chat.sendMessage({ text: "Who am I?" });
    await chat.idle();
    expect(texts(chat.lastMessage)).toEqual(["You are Ada."]);
    expect(model.calls[1]?.request.messages.filter((m) => m.role !== "system")).toEqual([
      { role: "user", content: "I am Ada." },
      { role: "assistant", content: "Hello Ada." },
      { role: "user", content: "Who am I?" },
    ]);
  });

  it("with a session, the server keeps the history (the client's copy is not read)", async () => {
    const model = new ScriptedModel([{ text: "Hello Ada." }, { text: "You are Ada." }]);
    const { handler } = route({ agent: new Agent({ model, store: new MemoryStore() }), session: true });
    const chat = new TestChat({ handler });
    await chat.sendMessage({ text: "I am Ada." });
    await chat.idle();
    // The client forgets (or forges) its history: the session still has the real one.
    chat.messages = [];
    await chat.sendMessage({ text: "Who am I?" });
    await chat.idle();
    expect(model.calls[1]?.request.messages.filter((m) => m.role !== "system")).toEqual([
      { role: "user", content: "I am Ada." },
      { role: "assistant", content: "Hello Ada." },
      { role: "user", content: "Who am I?" },
    ]);
  });

  it("regenerate: without a session the answer is made again from the client's history; a session refuses it", async () => {
    const model = new ScriptedModel([{ text: "First try." }, { text: "Second try." }]);
    const { handler } = route({ agent: new Agent({ model }) });
    const chat = new TestChat({ handler });
    await chat.sendMessage({ text: "Tell me a joke" });
    await chat.idle();
    await chat.regenerate();
    await chat.idle();
    expect(chat.messages.map((m) => texts(m).join(""))).toEqual(["Tell me a joke", "Second try."]);
    expect(model.calls[1]?.request.messages.filter((m) => m.role !== "system")).toEqual([
      { role: "user", content: "Tell me a joke" },
    ]);

    const stored = new ScriptedModel([{ text: "First try." }, { text: "Second try." }]);
    const session = route({ agent: new Agent({ model: stored, store: new MemoryStore() }), session: true });
    const sessionChat = new TestChat({ handler: session.handler });
    await sessionChat.sendMessage({ text: "Tell me a joke" });
    await sessionChat.idle();
    await sessionChat.regenerate();
    await sessionChat.idle();
    expect(sessionChat.status).toBe("error");
    expect(sessionChat.error?.message).toContain("not supported for a chat kept in a session");
    expect(stored.calls).toHaveLength(1);
  });

  it("files sent with a message reach the model as content parts", async () => {
    const model = new ScriptedModel([{ text: "A red dot." }]);
    const { handler } = route({ agent: new Agent({ model }) });
    const chat = new TestChat({ handler });
    const png = "data:image/png;base64,iVBORw0KGgo=";
    await chat.sendMessage({
      text: "What is this?",
      files: [
        { type: "file", mediaType: "image/png", url: png, filename: "dot.png" },
        { type: "file", mediaType: "application/pdf", url: "https://example.com/a.pdf", filename: "a.pdf" },
      ],
    });
    await chat.idle();
    expect(model.calls[0]?.request.messages.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "image", data: "iVBORw0KGgo=", mediaType: "image/png" },
        { type: "file", url: "https://example.com/a.pdf", mediaType: "application/pdf", filename: "a.pdf" },
        { type: "text", text: "What is this?" },
      ],
    });
  });
});
