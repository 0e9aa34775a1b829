import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

/** What the error reads of the request's last message: any `Message` fits (errors import no model types). */
type LastMessage = {
  readonly role: "system" | "user" | "assistant" | "tool";
  readonly content: string | ReadonlyArray<{ readonly type: string; readonly text?: string }>;
  readonly toolCalls?: ReadonlyArray<{ readonly name: string }> | undefined;
  readonly toolName?: string;
  readonly toolCallId?: string;
};

const MARK_UNEXPECTEDMODELCALLERROR = errorMarker("UnexpectedModelCallError");

/** Longest excerpt of the last message shown in the error message. */
const MAX_EXCERPT = 300;

/**
 * A {@link ScriptedModel} was called more often than it had scripted steps. Thrown (or raised from the
 * stream) instead of inventing an answer, so a test that makes an unplanned model call fails loudly.
 */
export class UnexpectedModelCallError extends AgentloopError {
  protected readonly [MARK_UNEXPECTEDMODELCALLERROR] = true;
  /** 0-based index of the unexpected call. */
  readonly callIndex: number;
  /** How many steps were scripted. */
  readonly scriptedSteps: number;
  /** The last message of the unexpected request, when it had one. */
  readonly lastMessage: LastMessage | undefined;

  constructor({
    callIndex,
    scriptedSteps,
    lastMessage,
  }: {
    callIndex: number;
    scriptedSteps: number;
    lastMessage: LastMessage | undefined;
  }) {
    super({
      message:
        `Unexpected model call #${callIndex + 1}: only ${scriptedSteps} step${scriptedSteps === 1 ? " was" : "s were"} ` +
        `scripted. Last message of the request: ${describeMessage(lastMessage)}`,
    });
    this.name = "UnexpectedModelCallError";
    this.callIndex = callIndex;
    this.scriptedSteps = scriptedSteps;
    this.lastMessage = lastMessage;
  }

  static override isInstance(error: unknown): error is UnexpectedModelCallError {
    return hasMarker(error, MARK_UNEXPECTEDMODELCALLERROR);
  }
}

/** A one-line description of a message for error messages: role, text excerpt, tool calls. */
function describeMessage(message: LastMessage | undefined): string {
  if (message === undefined) return "(none: the request had no messages)";
  const content = message.content;
  const body =
    typeof content === "string"
      ? content
      : content.map((part) => (part.type === "text" ? (part.text ?? "") : `[${part.type}]`)).join(" ");
  let text = JSON.stringify(excerpt(body));
  if (message.role === "assistant" && message.toolCalls !== undefined && message.toolCalls.length > 0) {
    text += ` + tool calls ${message.toolCalls.map((call) => call.name).join(", ")}`;
  }
  if (message.role === "tool") text = `(${message.toolName}, ${message.toolCallId}) ${text}`;
  return `${message.role}: ${text}`;
}

function excerpt(text: string): string {
  return text.length <= MAX_EXCERPT ? text : `${text.slice(0, MAX_EXCERPT)}…`;
}
