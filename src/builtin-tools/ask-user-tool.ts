import { AbortError } from "../errors/abort-error.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { type Tool, type ToolContext, tool } from "../tools/tool.js";

/** Asks the human a question and resolves with the answer. Should stop waiting when `ctx.signal` aborts. */
export type AskCallback = (question: string, ctx: ToolContext) => Promise<string>;

/** Options of {@link askUserTool}. */
export interface AskUserToolOptions {
  /** Asks the human: a terminal prompt ({@link terminalAsk}), a chat UI, a test double. */
  ask: AskCallback;
  /** How long a call may wait for the answer. Default `Infinity` (people take their time). */
  timeoutMs?: number;
}

/** Arguments of the `ask_user` tool. */
export interface AskUserArgs extends Record<string, unknown> {
  /** The question for the human. */
  question: string;
}

/** What the model receives when the human answers with nothing but whitespace. */
export const NO_ANSWER = "(no answer)";

/** Resolves with `promise`, or rejects with an {@link AbortError} as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new AbortError({ cause: signal.reason }));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new AbortError({ cause: signal.reason }));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Creates the `ask_user` tool: the model asks the human a question through `ask` and receives the answer
 * (trimmed; {@link NO_ANSWER} when empty). An abort of the call (`ctx.signal`) rejects at once with an
 * `AbortError`, even if `ask` ignores the signal. The tool runs alone (`sequential`), so two questions never
 * compete for the human, and has no timeout unless `timeoutMs` is given.
 *
 * @example
 * const agent = new Agent({ model, tools: [askUserTool({ ask: terminalAsk() })] });
 */
export function askUserTool(options: AskUserToolOptions): Tool<AskUserArgs, string> {
  if (options === null || typeof options !== "object" || typeof options.ask !== "function") {
    throw new InvalidArgumentError({
      argument: "ask",
      message: "expected a function (question, ctx) => answer",
    });
  }
  const { ask } = options;
  return tool<AskUserArgs, string>({
    name: "ask_user",
    description:
      "Asks the user a question and returns their answer. Use it when you need information or a decision " +
      "only the user can give; ask one clear question at a time.",
    parameters: {
      type: "object",
      properties: {
        question: {
          type: "string",
          minLength: 1,
          maxLength: 2000,
          description: "The question to ask the user",
        },
      },
      required: ["question"],
      additionalProperties: false,
    },
    sequential: true,
    timeoutMs: options.timeoutMs ?? Number.POSITIVE_INFINITY,
    execute: async ({ question }, ctx) => {
      const answer = await untilAborted(
        Promise.resolve().then(() => ask(question, ctx)),
        ctx.signal,
      );
      if (typeof answer !== "string")
        throw new Error(`The ask callback returned ${typeof answer}, not a string`);
      const trimmed = answer.trim();
      return trimmed === "" ? NO_ANSWER : trimmed;
    },
  });
}
