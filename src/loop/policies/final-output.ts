import { OutputError } from "../../errors/output-error.js";
import { RefusalError } from "../../errors/refusal-error.js";
import { dropStrictNulls } from "../../models/drop-strict-nulls.js";
import type { ToolCall } from "../../models/message.js";
import type { ModelRequest, ModelResponse, ModelToolSpec } from "../../models/model.js";
import { loadPartialJsonParser, PartialOutput } from "../../output/partial-output.js";
import { decodeOutputText, type OutputCheck, type ResolvedOutput } from "../../output/resolve-output.js";
import type { AgentEvent, StopReason } from "../agent-event.js";
import { createEvent } from "../create-event.js";
import type { LoopState } from "../loop-state.js";
import type { TurnRunner } from "./turn-limits.js";

/** Options of {@link FinalOutput}. */
export interface FinalOutputOptions {
  state: LoopState;
  output: ResolvedOutput;
  /** The model answers in JSON natively (`capabilities.structuredOutput`); else through the final-answer tool. */
  native: boolean;
  /** How many times an invalid answer is sent back with its errors (default 1). */
  maxRetries: number;
  /** `provider:modelId`, for errors. */
  modelName: string;
  /** The tools offered every turn (the registry's specs), to which the final-answer tool is added. */
  toolSpecs: readonly ModelToolSpec[];
  /** The run streams (`agent.stream`): report the partial answer as `output_delta` events. */
  stream: boolean;
}

/** What the loop does after a response, as the output policy sees it. */
export type OutputVerdict =
  | { kind: "not_final" }
  | { kind: "done" }
  | { kind: "retry" }
  | { kind: "failed"; stopReason: StopReason; error: OutputError };

const NOT_FINAL: OutputVerdict = Object.freeze({ kind: "not_final" });

/**
 * The typed final answer (`Agent({ output })`). Natively, every request carries the schema and the model's
 * text answer is the JSON; otherwise a `final_answer` tool with the schema as its parameters is offered and
 * its call is the answer (a text answer gets one forced call). An answer that is not JSON or does not match
 * is sent back with its field-level errors, `maxRetries` times (`output_invalid` events); a refusal is a
 * {@link RefusalError}. At `maxTurns` the wrap-up call asks for the answer in the same form. A run that ends
 * without a valid answer gets an {@link OutputError} (`reason: "missing"` when it stopped before one).
 */
export class FinalOutput {
  private retriesLeft: number;
  private forceTool = false;
  private readonly tools: readonly ModelToolSpec[] | undefined;
  private readonly name: string;

  constructor(private readonly options: FinalOutputOptions) {
    this.retriesLeft = options.maxRetries;
    this.name = options.output.format.name;
    if (!options.native) {
      const { format } = options.output;
      const finalTool: ModelToolSpec = {
        name: format.name,
        description: format.description ?? "Give your final answer by calling this tool with it, once.",
        parameters: format.schema,
      };
      this.tools = [...options.toolSpecs, finalTool];
    }
  }

  /** One model turn asking for the answer in its form (with `output_delta` events when streaming). */
  run(turn: TurnRunner): AsyncGenerator<AgentEvent, ModelResponse | undefined> {
    const events = turn.run(this.overrides());
    return this.options.stream ? this.observe(events) : events;
  }

  /**
   * Re-yields a turn's events, adding an `output_delta` after each fragment of the answer's JSON (text deltas
   * natively, the final-answer tool's argument deltas otherwise) that changes the partial object. A `retry`
   * of the stream starts the partial object over.
   */
  private async *observe(
    events: AsyncGenerator<AgentEvent, ModelResponse | undefined>,
  ): AsyncGenerator<AgentEvent, ModelResponse | undefined> {
    const parse = await loadPartialJsonParser();
    let partial = new PartialOutput(parse);
    const turn = this.options.state.turns + 1;
    let done = false;
    try {
      while (true) {
        const next = await events.next();
        if (next.done) {
          done = true;
          return next.value;
        }
        const event = next.value;
        yield event;
        if (event.type === "retry") partial = new PartialOutput(parse);
        const fragment = this.fragment(event);
        const update = fragment === undefined ? undefined : partial.add(fragment);
        if (update !== undefined) yield createEvent("output_delta", turn, update);
      }
    } finally {
      if (!done) await events.return(undefined);
    }
  }

  /** The part of the answer's JSON an event carries, if any. */
  private fragment(event: AgentEvent): string | undefined {
    if (this.options.native) return event.type === "text_delta" ? event.data.delta : undefined;
    if (event.type !== "tool_call_delta" || event.data.toolName !== this.name) return undefined;
    return event.data.delta;
  }

  /** The request overrides of a normal turn. */
  private overrides(): Partial<ModelRequest> {
    if (this.options.native) return { output: this.options.output.format };
    const overrides: Partial<ModelRequest> = { tools: this.tools ?? [] };
    if (this.forceTool) overrides.toolChoice = { type: "tool", name: this.name };
    this.forceTool = false;
    return overrides;
  }

  /** A turn runner for the wrap-up call at `maxTurns`: the call asks for the answer in its form, once. */
  wrapUp(turn: TurnRunner): TurnRunner {
    return {
      run: async function* (this: FinalOutput, overrides?: Partial<ModelRequest>) {
        const request: Partial<ModelRequest> = this.options.native
          ? { ...overrides, output: this.options.output.format }
          : { ...overrides, tools: this.tools ?? [], toolChoice: { type: "tool", name: this.name } };
        const inner = turn.run(request);
        const response = yield* this.options.stream ? this.observe(inner) : inner;
        if (response !== undefined) {
          this.retriesLeft = 0;
          yield* this.afterResponse(response);
        }
        return response;
      }.bind(this),
    };
  }

  /** After a model response: whether it was the final answer, and what the loop does next. */
  async *afterResponse(response: ModelResponse): AsyncGenerator<AgentEvent, OutputVerdict> {
    if (this.options.native) {
      if (response.toolCalls.length > 0) return NOT_FINAL;
      return yield* this.nativeAnswer(response);
    }
    const call = response.toolCalls.find((c) => c.name === this.name);
    if (call !== undefined) {
      // With other calls beside it, only a valid answer ends the run (the others are closed unanswered);
      // otherwise the tools run and the premature final call is answered as an unknown tool.
      const alone = response.toolCalls.length === 1;
      if (alone || (await this.options.output.check(call.arguments)).ok) return yield* this.toolAnswer(call);
      return NOT_FINAL;
    }
    if (response.toolCalls.length > 0) return NOT_FINAL;
    return yield* this.textInsteadOfTool(response);
  }

  /** The error for a run that ended with `stopReason` and no typed answer (none when it has one or paused). */
  missing(stopReason: StopReason): OutputError | undefined {
    const { state } = this.options;
    if (state.output !== undefined || stopReason === "awaiting_approval") return undefined;
    if (state.outputError !== undefined) return state.outputError;
    return new OutputError({
      reason: "missing",
      message: `the run stopped (${stopReason}) before a typed final answer`,
      ...(state.text === "" ? {} : { text: state.text }),
    });
  }

  private async *nativeAnswer(response: ModelResponse): AsyncGenerator<AgentEvent, OutputVerdict> {
    if (response.refusal !== undefined || response.finishReason.unified === "content_filter") {
      const error = new RefusalError({ refusal: response.refusal ?? "", model: this.options.modelName });
      return this.fail("error", error);
    }
    if (response.finishReason.unified === "length") {
      const error = new OutputError({
        reason: "invalid",
        message: "the typed answer was cut off by the output token limit (raise maxOutputTokens)",
        text: response.text,
      });
      return this.fail("max_output_tokens", error);
    }
    const decoded = decodeOutputText(response.text);
    // Strict schemas (OpenAI) make optional properties nullable: a null the schema would refuse means absent.
    const schema = this.options.output.format.schema;
    const checked = decoded.ok
      ? await this.options.output.check(dropStrictNulls({ schema, value: decoded.value }))
      : decoded;
    if (checked.ok) return this.accept(checked.value, response.text);
    return yield* this.invalid(checked, response.text, () =>
      this.options.state.messages.push({ role: "user", content: retryPrompt(checked.errors) }),
    );
  }

  private async *toolAnswer(call: ToolCall): AsyncGenerator<AgentEvent, OutputVerdict> {
    const { messages } = this.options.state;
    const checked: OutputCheck =
      call.parseError !== undefined
        ? { ok: false, errors: [`the arguments are not valid JSON (${call.parseError})`] }
        : await this.options.output.check(call.arguments);
    const answer = (content: string, isError?: boolean) =>
      messages.push({
        role: "tool",
        toolCallId: call.id,
        toolName: call.name,
        content,
        ...(isError ? { isError } : {}),
      });
    if (checked.ok) {
      answer("Final answer received.");
      return this.accept(checked.value, call.rawArguments);
    }
    return yield* this.invalid(checked, call.rawArguments, () => answer(retryPrompt(checked.errors), true));
  }

  private async *textInsteadOfTool(response: ModelResponse): AsyncGenerator<AgentEvent, OutputVerdict> {
    const errors = [`the answer was text: call the ${this.name} tool with the answer`];
    return yield* this.invalid({ errors }, response.text, () => {
      this.forceTool = true;
      this.options.state.messages.push({
        role: "user",
        content: `Call the ${this.name} tool with your final answer.`,
      });
    });
  }

  private async *invalid(
    checked: { errors: string[] },
    text: string,
    sendBack: () => void,
  ): AsyncGenerator<AgentEvent, OutputVerdict> {
    const retry = this.retriesLeft > 0;
    yield createEvent("output_invalid", this.options.state.turns, { errors: checked.errors, retry });
    if (retry) {
      this.retriesLeft--;
      sendBack();
      return { kind: "retry" };
    }
    const error = new OutputError({
      reason: "invalid",
      message: `the typed answer is invalid: ${checked.errors.slice(0, 5).join("; ")}`,
      errors: checked.errors,
      text,
    });
    return this.fail("error", error);
  }

  private accept(value: unknown, text: string): OutputVerdict {
    this.options.state.output = value;
    this.options.state.text = text;
    return { kind: "done" };
  }

  private fail(stopReason: StopReason, error: OutputError): OutputVerdict {
    this.options.state.outputError = error;
    return { kind: "failed", stopReason, error };
  }
}

/** The message that sends an invalid answer's errors back to the model. */
function retryPrompt(errors: readonly string[]): string {
  const listed = errors
    .slice(0, 10)
    .map((error) => `- ${error}`)
    .join("\n");
  return `Your final answer does not match the required JSON schema:\n${listed}\nAnswer again with the corrected JSON only.`;
}
