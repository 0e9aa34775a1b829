import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { isEmptyInput, type MessageContent } from "../models/content-part.js";
import { normalizeContent, type RunInput } from "../models/normalize-content.js";

/** A message sent to a running agent, waiting for the next turn. */
export interface SteeringMessage {
  content: MessageContent;
  /** Settles `send`'s promise: true once the message is in the history, false when the run ended first. */
  settle: (applied: boolean) => void;
}

let takeMessages: (inbox: SteeringInbox) => SteeringMessage[];
let attachInbox: (inbox: SteeringInbox) => void;
let closeInbox: (inbox: SteeringInbox) => void;

/**
 * Messages for a running agent (steering): `send` queues a user message, which the loop adds to the history
 * between two turns — after a turn's tool results, before the next model call; never inside a tool call and
 * its result, so the history stays valid — with a `user_message` event. A message that arrives while the
 * model writes its final answer keeps the run going: the model is called again with it. Pass one to a run
 * (`agent.run(input, { steering })`); `agent.stream()` makes its own (`stream.send`). An inbox serves one run.
 *
 * @example
 * const steering = new SteeringInbox();
 * const running = agent.run("Research the topic", { steering });
 * await steering.send("Focus on papers after 2020."); // true once the agent has it
 */
export class SteeringInbox {
  /** Made on the first `send` (most streams are never steered). */
  #queue: SteeringMessage[] | undefined;
  #state: "new" | "running" | "closed" = "new";

  static {
    takeMessages = (inbox) => {
      const taken = inbox.#queue ?? [];
      inbox.#queue = undefined;
      return taken;
    };
    attachInbox = (inbox) => {
      if (inbox.#state !== "new") {
        throw new InvalidArgumentError({ argument: "steering", message: "a steering inbox serves one run" });
      }
      inbox.#state = "running";
    };
    closeInbox = (inbox) => {
      inbox.#state = "closed";
      const left = takeMessages(inbox);
      for (const message of left) message.settle(false);
    };
  }

  /**
   * Queues `message` (text, or content parts as `agent.run` takes them) for the run. Resolves true once it is
   * in the history, false when the run ended before it could be added (also at once, for a run that has
   * ended). Throws {@link InvalidArgumentError} for an empty or invalid message.
   */
  send(message: RunInput): Promise<boolean> {
    if (typeof message !== "string" && !Array.isArray(message)) {
      throw new InvalidArgumentError({ argument: "message", message: "expected a string or content parts" });
    }
    const content = normalizeContent({ content: message, argument: "message" });
    if (isEmptyInput(content))
      throw new InvalidArgumentError({ argument: "message", message: "the message is empty" });
    if (this.#state === "closed") return Promise.resolve(false);
    return new Promise<boolean>((settle) => {
      this.#queue ??= [];
      this.#queue.push({ content, settle });
    });
  }

  /** Messages waiting for the next turn. */
  get pending(): number {
    return this.#queue?.length ?? 0;
  }

  /** Whether the run has ended (a message sent now is not delivered). */
  get closed(): boolean {
    return this.#state === "closed";
  }
}

/** The messages waiting in `inbox`, taken out (the loop adds them to the history, then settles them). */
export function takeSteeringMessages(inbox: SteeringInbox): SteeringMessage[] {
  return takeMessages(inbox);
}

/** Marks `inbox` as serving a run; throws {@link InvalidArgumentError} when it served (or serves) another. */
export function attachSteeringInbox(inbox: SteeringInbox): void {
  attachInbox(inbox);
}

/** The run ended: waiting messages are not delivered (their `send` resolves false), later ones neither. */
export function closeSteeringInbox(inbox: SteeringInbox): void {
  closeInbox(inbox);
}
