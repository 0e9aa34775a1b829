import { describeContent } from "../../tools/describe-content.js";
import type { AgentEvent } from "../agent-event.js";
import { createEvent } from "../create-event.js";
import type { LoopState } from "../loop-state.js";
import {
  closeSteeringInbox,
  type SteeringInbox,
  type SteeringMessage,
  takeSteeringMessages,
} from "../steering-inbox.js";

/**
 * Where a run's steering messages come from: an inbox, or (a durable run) the journal's messages first, then
 * the inbox's, journaled before they are handed over.
 */
export interface SteeringFeed {
  /** Whether messages wait to be added before model turn `turn`. Synchronous and cheap: asked every turn. */
  waiting(turn: number): boolean;
  /** The messages to add before model turn `turn`, taken out. */
  take(turn: number): SteeringMessage[] | Promise<SteeringMessage[]>;
  /** The run ended: messages still waiting are not delivered. */
  close(): void;
}

/** The feed of a plain run: the inbox itself. */
class InboxFeed implements SteeringFeed {
  constructor(private readonly inbox: SteeringInbox) {}

  waiting(): boolean {
    return this.inbox.pending > 0;
  }

  take(): SteeringMessage[] {
    return takeSteeringMessages(this.inbox);
  }

  close(): void {
    closeSteeringInbox(this.inbox);
  }
}

/** The feed of a plain run: the inbox itself. */
export function inboxFeed(inbox: SteeringInbox): SteeringFeed {
  return new InboxFeed(inbox);
}

/**
 * The steering policy: before a model turn, the messages sent to the run are added to the history as user
 * messages (a `user_message` event each), and each sender learns it was delivered. The loop asks it only at
 * the start of a turn, when every tool call of the history has its result.
 */
export class Steering {
  constructor(private readonly options: { state: LoopState; feed: SteeringFeed }) {}

  /** Whether messages wait for the next turn (a final answer then does not end the run). */
  waiting(): boolean {
    return this.options.feed.waiting(this.options.state.turns + 1);
  }

  /** Adds the waiting messages to the history (nothing to do, and no await, when none wait). */
  async *apply(): AsyncGenerator<AgentEvent, void> {
    const { state, feed } = this.options;
    const turn = state.turns + 1;
    if (!feed.waiting(turn)) return;
    const messages = await feed.take(turn);
    for (const message of messages) {
      state.messages.push({ role: "user", content: message.content });
      message.settle(true);
      yield createEvent("user_message", state.turns, { content: describeContent(message.content) });
    }
  }

  /** The run ended: messages still waiting are reported as not delivered. */
  close(): void {
    this.options.feed.close();
  }
}
