// Item "OpenAI-compatible servers' context-overflow errors": the overflow errors of llama.cpp, vLLM, Ollama and
// LM Studio (besides OpenAI's and Anthropic's) are recognised, so an Agent with a `context` option compacts the
// history and retries the call once; the error keeps the envelope's `type` and `code` as sent.
import { describe, expect, it } from "vitest";
import { Agent } from "../../src/agent.js";
import { isContextLengthError } from "../../src/errors/is-context-length-error.js";
import { ModelCallError } from "../../src/errors/model-call-error.js";
import { createOpenAI } from "../../src/providers/openai/create-openai.js";
import { tool } from "../../src/tools/tool.js";
import { type RawHandler, startRawServer } from "./transport-test-server.js";

const LLAMA_CPP = {
  error: {
    code: 400,
    message: "request (538 tokens) exceeds the available context size (512 tokens), try increasing it",
    type: "exceed_context_size_error",
  },
};

const OVERFLOWS: Array<[string, unknown]> = [
  ["llama.cpp", LLAMA_CPP],
  [
    "vLLM (maximum context length)",
    {
      object: "error",
      message:
        "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
      type: "BadRequestError",
      param: null,
      code: 400,
    },
  ],
  [
    "vLLM (longer than the context length)",
    {
      error: {
        message: "Input prompt (5000 tokens) is longer than the model's context length (4096 tokens).",
        type: "BadRequestError",
        code: 400,
      },
    },
  ],
  [
    "Ollama",
    { error: { message: "prompt too long; exceeded max context length by 12 tokens", type: "api_error" } },
  ],
  [
    "LM Studio",
    {
      error:
        "Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input",
    },
  ],
];

const completion = (message: Record<string, unknown>, finish: string) =>
  JSON.stringify({
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: { prompt_tokens: 10, completion_tokens: 5 },
  });

describe("context-overflow errors of OpenAI-compatible servers", () => {
  it("llama.cpp: the error keeps type and code as sent, and a meaningful code", async () => {
    const server = await startRawServer(({ res }) => {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify(LLAMA_CPP));
    });
    try {
      const model = createOpenAI({ baseURL: server.url, apiKey: "k" })("local");
      const error = (await model
        .generate({ messages: [{ role: "user", content: "hi" }] })
        .catch((e: unknown) => e)) as ModelCallError;
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect(error.status).toBe(400);
      expect(error.errorType).toBe("exceed_context_size_error");
      expect(error.errorCode).toBe(400);
      expect(error.code).toBe("exceed_context_size_error");
      expect(isContextLengthError(error)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it.each(OVERFLOWS)(
    "%s: the run compacts the history and retries once, then completes",
    async (_server, overflow) => {
      const bodies: string[] = [];
      const handler: RawHandler = ({ res, body, index }) => {
        bodies.push(body);
        res.writeHead(index === 1 ? 400 : 200, { "content-type": "application/json" });
        if (index === 0) {
          res.end(
            completion(
              {
                content: null,
                tool_calls: [{ id: "call_1", type: "function", function: { name: "read", arguments: "{}" } }],
              },
              "tool_calls",
            ),
          );
        } else if (index === 1) {
          res.end(JSON.stringify(overflow));
        } else {
          res.end(completion({ content: "done" }, "stop"));
        }
      };
      const server = await startRawServer(handler);
      try {
        const read = tool({
          name: "read",
          description: "Reads a long file",
          execute: async () => "line of text ".repeat(3_000),
        });
        const agent = new Agent({
          model: createOpenAI({ baseURL: server.url, apiKey: "k", retry: { maxRetries: 0 } })("local"),
          tools: [read],
          context: { maxContextTokens: 1_000_000 },
        });
        const result = await agent.run("Summarise the file");
        expect(result.stopReason, String(result.error)).toBe("completed");
        expect(result.text).toBe("done");
        expect(result.events.filter((e) => e.type === "compaction")).toHaveLength(1);
        expect(bodies).toHaveLength(3);
        expect((bodies[2] ?? "").length).toBeLessThan((bodies[1] ?? "").length);
      } finally {
        await server.close();
      }
    },
  );

  it("other 400s are not taken for an overflow", () => {
    for (const message of ["Invalid model id", "max_tokens must be at least 1", "rate limit exceeded"]) {
      expect(isContextLengthError(new ModelCallError({ message, status: 400, isRetryable: false }))).toBe(
        false,
      );
    }
  });
});
