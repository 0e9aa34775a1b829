import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { AbortError } from "../errors/abort-error.js";
import type { ToolContext } from "../tools/tool.js";
import { askUserTool, NO_ANSWER } from "./ask-user-tool.js";
import { terminalAsk } from "./terminal-ask.js";

function context(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { signal, toolCallId: "call", turn: 1 };
}

function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe("ask_user", () => {
  it("asks through the callback and returns the trimmed answer", async () => {
    const asked: string[] = [];
    const tool = askUserTool({
      ask: async (question, ctx) => {
        asked.push(`${question} (${ctx.toolCallId})`);
        return "  blue \n";
      },
    });
    expect(await tool.execute({ question: "Favourite colour?" }, context())).toBe("blue");
    expect(asked).toEqual(["Favourite colour? (call)"]);
    expect(tool.sequential).toBe(true);
    expect(tool.timeoutMs).toBe(Number.POSITIVE_INFINITY);
  });

  it("returns (no answer) for an empty answer", async () => {
    const tool = askUserTool({ ask: async () => "   " });
    expect(await tool.execute({ question: "Anything?" }, context())).toBe(NO_ANSWER);
  });

  it("rejects with AbortError when the call is aborted, even if the callback ignores the signal", async () => {
    const tool = askUserTool({ ask: () => new Promise<string>(() => {}) });
    const controller = new AbortController();
    const pending = tool.execute({ question: "Still there?" }, context(controller.signal));
    controller.abort(new Error("run cancelled"));
    const error = await Promise.resolve(pending).catch((e: unknown) => e);
    expect(AbortError.isInstance(error)).toBe(true);
    await expect(tool.execute({ question: "?" }, context(AbortSignal.abort()))).rejects.toThrow(AbortError);
  });

  it("requires an ask function", () => {
    expect(() => askUserTool({} as never)).toThrow(/Invalid ask/);
  });
});

describe("terminalAsk", () => {
  it("writes the question and reads the answer line", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const tool = askUserTool({ ask: terminalAsk({ input, output }) });
    const answer = tool.execute({ question: "Your name?" }, context());
    await flush();
    expect(String(output.read())).toBe("Your name?\n> ");
    input.write("Ada\n");
    expect(await answer).toBe("Ada");
    input.end();
  });

  it("keeps lines that arrive early for the next questions, and answers an empty line with (no answer)", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const ask = terminalAsk({ input, output });
    input.write("first\n\nthird\n");
    expect(await ask("1?", context())).toBe("first");
    const tool = askUserTool({ ask });
    expect(await tool.execute({ question: "2?" }, context())).toBe(NO_ANSWER);
    expect(await ask("3?", context())).toBe("third");
    input.end();
  });

  it("rejects when aborted, and the next question still gets the next line", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const ask = terminalAsk({ input, output });
    const controller = new AbortController();
    const pending = ask("Wait?", context(controller.signal));
    await flush();
    controller.abort();
    await expect(pending).rejects.toThrow(AbortError);
    const next = ask("Next?", context());
    input.write("yes\n");
    expect(await next).toBe("yes");
    input.end();
  });

  it("rejects when the input ends before an answer", async () => {
    const input = new PassThrough();
    const ask = terminalAsk({ input, output: new PassThrough() });
    const pending = ask("Hello?", context());
    input.end();
    await expect(pending).rejects.toThrow("The input ended before the user answered");
    await expect(ask("Again?", context())).rejects.toThrow("The input ended");
  });
});
