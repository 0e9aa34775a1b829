// A custom model: anything that implements agentloop's small Model interface can drive an agent. This one is a
// tiny rule-based "model" (no network at all): it calls the calculator for arithmetic questions and answers
// with the result. Wrapping a real model (logging, caching, routing) works the same way.
import { Agent, collectStream } from "agentloop";
import { calculator } from "agentloop/tools";

/** @implements {import("agentloop").Model} */
class ArithmeticModel {
  provider = "example";
  modelId = "arithmetic-v1";

  async generate(request) {
    const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    const last = request.messages.at(-1);
    if (last?.role === "tool") {
      return {
        text: `The answer is ${last.content}.`,
        toolCalls: [],
        usage,
        finishReason: { unified: "stop", raw: "stop" },
      };
    }
    const expression =
      (last?.content ?? "")
        .match(/[\d.+\-*/() ^%]+/g)
        ?.join("")
        .trim() ?? "";
    const call = {
      id: "call_1",
      name: "calculator",
      arguments: { expression },
      rawArguments: JSON.stringify({ expression }),
    };
    return { text: "", toolCalls: [call], usage, finishReason: { unified: "tool_calls", raw: "tool_calls" } };
  }

  // Streaming: derive the parts from generate (a real model would stream from its wire format).
  async *stream(request, options) {
    const response = await this.generate(request, options);
    if (response.text) yield { type: "text_delta", delta: response.text };
    for (const toolCall of response.toolCalls) yield { type: "tool_call_end", toolCall };
    yield { type: "finish", usage: response.usage, finishReason: response.finishReason };
  }
}

const agent = new Agent({ model: new ArithmeticModel(), tools: [calculator] });
const result = await agent.run("What is (17 + 4) * 2?");
console.log(result.text); // The answer is 42.
console.log(
  `turns: ${result.turns}, tool calls: ${result.toolCalls.map((c) => `${c.name}(${JSON.stringify(c.arguments)}) = ${c.result}`).join(", ")}`,
);

// The same model streams, too:
const streamed = await collectStream(
  new ArithmeticModel().stream({ messages: [{ role: "user", content: "2 + 2" }] }),
);
console.log(`streamed tool call: ${streamed.toolCalls[0]?.name}(${streamed.toolCalls[0]?.rawArguments})`);
