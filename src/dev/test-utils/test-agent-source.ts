import { SRC } from "./dev-test-server.js";

/**
 * The text of a test agent file: a ScriptedModel agent with an `add` tool and an approval-gated `save_note`
 * tool. A message with "note" calls save_note, one with "add" calls add, anything else is answered
 * "<answer> to <message>"; after a tool result it answers "<answer>: <result>".
 */
export function testAgentSource({
  answer = "echo",
  delayMs = 0,
}: {
  answer?: string;
  delayMs?: number;
} = {}): string {
  return `import { Agent } from ${JSON.stringify(SRC("agent.ts"))};
import { tool } from ${JSON.stringify(SRC("tools/tool.ts"))};
import { ScriptedModel } from ${JSON.stringify(SRC("testing/scripted-model.ts"))};
const saveNote = tool({
  name: "save_note",
  description: "Saves a note",
  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  needsApproval: true,
  execute: ({ text }) => "saved " + text,
});
const add = tool({
  name: "add",
  description: "Adds two numbers",
  parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  execute: ({ a, b }) => String(a + b),
});
const model = new ScriptedModel((request) => {
  const last = request.messages.at(-1);
  if (last.role === "tool") return { text: ${JSON.stringify(answer)} + ": " + last.content, delayMs: ${delayMs} };
  const task = typeof last.content === "string" ? last.content : "";
  if (task.includes("note")) return { text: "Saving.", toolCalls: [{ name: "save_note", arguments: { text: "milk" } }] };
  if (task.includes("add")) return { text: "Adding.", toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }] };
  return { text: ${JSON.stringify(answer)} + " to " + task, delayMs: ${delayMs} };
});
export default new Agent({
  name: "tester",
  model,
  tools: [saveNote, add],
  pricing: { scripted: { inputPerMTok: 1, outputPerMTok: 2 } },
});
`;
}
