// A custom renderer: the built-in terminal renderer with two rules of our own. Rule priority: a tool rule,
// then an event rule, then the default; a rule that throws falls back to the default (it can never break the
// run), and returning undefined prints nothing.
import { Agent } from "agentloop";
import { createTerminalRenderer } from "agentloop/render";
import { calculator } from "agentloop/tools";
import { exampleModel, toolResults } from "./lib/example-model.mjs";

const script = (body) =>
  toolResults(body).length === 0
    ? {
        text: "Let me work that out.",
        toolCalls: [{ name: "calculator", arguments: { expression: "(3 + 4) * 6" } }],
      }
    : { text: `The answer is ${toolResults(body)[0]}.` };

const renderer = createTerminalRenderer()
  // Calculator calls as a little equation instead of the default "→ calculator({...})" lines.
  .onTool("calculator", (event) =>
    event.type === "action" ? `  🧮 ${event.data.arguments.expression}` : `   = ${event.data.result}\n`,
  )
  // Model calls as one compact line.
  .onEvent(
    "model_call",
    (event) => `  (model: ${event.data.usage.totalTokens} tokens, ${event.data.latencyMs} ms)\n`,
  )
  // A buggy rule: it throws, so the default rendering is used for thoughts.
  .onEvent("thought", () => {
    throw new Error("oops");
  });

const { model, close } = await exampleModel({ script });
const agent = new Agent({ model, tools: [calculator], onEvent: (e) => renderer.handle(e) });
await agent.run("What is (3 + 4) * 6?");
await close();
