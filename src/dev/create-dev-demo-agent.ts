import { Agent } from "../agent.js";
import { buildCliTools } from "../cli/build-cli-tools.js";
import { demoScript } from "../cli/demo-script.js";
import { createOpenAI } from "../providers/openai/create-openai.js";
import { startMockOpenAIServer } from "../testing/mock-openai-server.js";
import type { MockChatRequest, MockReply } from "../testing/mock-reply.js";
import { type Tool, tool } from "../tools/tool.js";

/** The agent `agentloop dev` runs without an agent file, and what to stop when the server closes. */
export interface DevDemoAgent {
  agent: Agent;
  /** Where the answers come from (for the start banner). */
  notice: string;
  close(): Promise<void>;
}

/** Options of {@link createDevDemoAgent}. */
export interface CreateDevDemoAgentOptions {
  /** The working directory (the built-in tools' root). */
  cwd: string;
}

interface WireMessage {
  role?: unknown;
  content?: unknown;
}

/** A note to save in a message such as "Save a note: buy milk" (or "remember …"). */
const NOTE = /\b(?:note|save|remember)\b[^:]*:\s*(.+)$/is;

/**
 * The demo's model: `agentloop run --demo`'s script (a calculator call for arithmetic, else an echo), plus a
 * `save_note` call, which needs approval, for a message such as "Save a note: buy milk" — so the approval
 * buttons can be tried without a key.
 */
function devDemoScript(body: MockChatRequest): MockReply {
  const messages = body.messages as WireMessage[];
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  const task = typeof messages[lastUser]?.content === "string" ? (messages[lastUser]?.content as string) : "";
  const after = messages.slice(lastUser + 1);
  const note = NOTE.exec(task)?.[1]?.trim();
  if (note !== undefined && note !== "") {
    const result = after.find((message) => message.role === "tool");
    if (result === undefined) {
      return { text: "I'll save that note.", toolCalls: [{ name: "save_note", arguments: { text: note } }] };
    }
    return { text: `Done: ${String(result.content)}` };
  }
  return demoScript(body);
}

/** `save_note`: keeps notes in memory; every call needs approval. */
function saveNoteTool(): Tool {
  const notes: string[] = [];
  return tool({
    name: "save_note",
    description: "Saves a short note for the user.",
    parameters: {
      type: "object",
      properties: { text: { type: "string", description: "The note" } },
      required: ["text"],
      additionalProperties: false,
    },
    needsApproval: true,
    execute: ({ text }: { text: string }) => {
      notes.push(text);
      return `saved note #${notes.length}: ${text}`;
    },
  }) as Tool;
}

/**
 * The demo agent of `agentloop dev` (no agent file given): `openai:gpt-4o-mini` answered by agentloop's
 * bundled mock OpenAI server (no key, nothing leaves the machine), with the `calculator`, `current_time` and
 * `save_note` (approval-gated) tools.
 */
export async function createDevDemoAgent({ cwd }: CreateDevDemoAgentOptions): Promise<DevDemoAgent> {
  const server = await startMockOpenAIServer({ script: devDemoScript, wordsPerEvent: 2 });
  const model = createOpenAI({ baseURL: server.url, apiKey: "demo" })("gpt-4o-mini");
  const tools = [
    ...buildCliTools({ names: ["calculator", "current_time"], cwd, ask: async () => "" }),
    saveNoteTool(),
  ];
  return {
    agent: new Agent({
      name: "demo",
      model,
      tools,
      system: "You are agentloop's demo agent.",
    }),
    notice: `demo agent: the answers come from agentloop's bundled mock OpenAI server at ${server.url}, not from a real model`,
    close: () => server.close(),
  };
}
