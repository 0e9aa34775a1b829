import type { MockChatRequest, MockReply } from "../testing/mock-reply.js";

/** The task `agentloop run --demo` runs when it is given none (it shows a tool call and an answer). */
export const DEMO_TASK = "What is 17 * 23?";

/** A wire message of a chat completion request, as far as the demo reads it. */
interface WireMessage {
  role?: unknown;
  content?: unknown;
  tool_calls?: Array<{ function?: { name?: unknown; arguments?: unknown } }>;
}

/** An arithmetic expression inside a sentence: numbers joined by at least one operator. */
const EXPRESSION = /[-(]*\d[\d.]*\)*(?:\s*(?:\*\*|[-+*/^%×x÷])\s*[-(]*\d[\d.]*\)*)+/;

function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("");
}

function offersTool(body: MockChatRequest, name: string): boolean {
  const tools = Array.isArray(body.tools) ? (body.tools as Array<{ function?: { name?: unknown } }>) : [];
  return tools.some((tool) => tool.function?.name === name);
}

/**
 * The script of `agentloop run --demo`: answers like a (very small) model would. A task with arithmetic
 * ("What is 17 * 23?") gets a `calculator` call when the tool is offered, then an answer built from the tool's
 * result; anything else is echoed back with a note that this is the demo.
 */
export function demoScript(body: MockChatRequest): MockReply {
  const messages = body.messages as WireMessage[];
  const lastUser = messages.findLastIndex((m) => m.role === "user");
  const task = lastUser < 0 ? "" : text(messages[lastUser]?.content);
  const results = messages.slice(lastUser + 1).filter((m) => m.role === "tool");
  if (results.length > 0) {
    const call = messages.findLast((m) => m.role === "assistant" && m.tool_calls !== undefined)
      ?.tool_calls?.[0];
    let expression: string | undefined;
    try {
      const args = JSON.parse(String(call?.function?.arguments ?? "{}")) as { expression?: unknown };
      if (typeof args.expression === "string") expression = args.expression;
    } catch {
      expression = undefined;
    }
    const result = text(results.at(-1)?.content);
    return {
      text:
        expression === undefined
          ? `The tool returned: ${result}`
          : `${expression} = ${result}. (Worked out with the calculator tool.)`,
    };
  }
  const expression = EXPRESSION.exec(task)?.[0]?.trim().replace(/[×x]/g, "*").replace(/÷/g, "/");
  if (expression !== undefined && offersTool(body, "calculator")) {
    return { text: "Let me calculate that.", toolCalls: [{ name: "calculator", arguments: { expression } }] };
  }
  return {
    text:
      `You said: "${task}". I am agentloop's demo model (a mock OpenAI server); ` +
      "set OPENAI_API_KEY or ANTHROPIC_API_KEY and drop --demo to talk to a real model.",
  };
}
