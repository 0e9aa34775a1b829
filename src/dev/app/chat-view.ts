import { append, clear, h } from "./dom.js";
import { formatCount, formatJson, formatUsd } from "./format.js";
import type { AgentEvent, DevMessage, PendingCall, RunResultSummary } from "./types.js";

/** The decisions for the calls of one approval card. */
export interface ApprovalDecisions {
  approve: string[];
  deny: string[];
}

/** An assistant reply being written: its turns' text as it streams, notes of its tool calls, its outcome. */
export class AssistantReply {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;
  private turnText: { turn: number; element: HTMLElement } | undefined;
  private readonly calls = new Map<string, HTMLElement>();

  constructor() {
    this.body = h("div", { class: "bubble-body" });
    this.element = h(
      "article",
      { class: "message assistant", "aria-label": "agent reply" },
      h("div", { class: "who" }, "agent"),
      this.body,
    );
  }

  /** Takes one event of the run (only the run's own: a sub-agent's events are the timeline's). */
  onEvent(event: AgentEvent): void {
    if (event.agent !== undefined || event.replayed === true) return;
    if (event.type === "text_delta") this.appendText(event.turn, event.data.delta);
    else if (event.type === "retry" && event.data.source === "stream") this.discardTurn(event.turn);
    else if (event.type === "action") {
      const note = h(
        "div",
        { class: "tool-note" },
        h("span", { class: "tool-name" }, `→ ${event.data.toolName}`),
        " ",
        h("code", {}, formatJson(event.data.arguments, { maxChars: 200 })),
      );
      this.calls.set(event.data.toolCallId, note);
      this.body.appendChild(note);
      this.turnText = undefined;
    } else if (event.type === "observation") {
      const note = this.calls.get(event.data.toolCallId);
      const outcome = h(
        "span",
        { class: event.data.ok ? "tool-ok" : "tool-failed" },
        ` ← ${formatJson(event.data.result, { maxChars: 200 })}`,
      );
      if (note) note.appendChild(outcome);
    }
  }

  private appendText(turn: number, delta: string): void {
    if (this.turnText?.turn !== turn) {
      const element = h("p", { class: "text" });
      this.body.appendChild(element);
      this.turnText = { turn, element };
    }
    this.turnText.element.append(delta);
  }

  private discardTurn(turn: number): void {
    if (this.turnText?.turn === turn) {
      this.turnText.element.remove();
      this.turnText = undefined;
    }
  }

  /** Ends the reply: the answer (when nothing streamed it, e.g. a resumed run) and a line with totals. */
  finish(result: RunResultSummary): void {
    const streamed = this.body.querySelector("p.text:last-of-type")?.textContent ?? "";
    if (result.text !== "" && !streamed.endsWith(result.text) && result.stopReason !== "awaiting_approval") {
      this.body.appendChild(h("p", { class: "text" }, result.text));
    }
    const usage = `${formatCount(result.usage.totalTokens)} tokens · ${formatUsd(result.costUsd)} · ${result.turns} turn${result.turns === 1 ? "" : "s"}`;
    const status =
      result.stopReason === "completed" ? usage : `${result.stopReason.replace(/_/g, " ")} · ${usage}`;
    this.element.appendChild(
      h("div", { class: `status ${result.stopReason === "completed" ? "" : "status-warn"}` }, status),
    );
    if (result.error !== undefined)
      this.element.appendChild(
        h("div", { class: "error-text" }, `${result.error.name}: ${result.error.message}`),
      );
  }

  /** Ends the reply with a failure that is not a run outcome (the run could not start, the stream broke). */
  fail(message: string): void {
    this.element.appendChild(h("div", { class: "error-text", role: "alert" }, message));
  }
}

/** The chat: the session's messages, streamed replies, approval cards. */
export class ChatView {
  private readonly log: HTMLElement;

  constructor(log: HTMLElement) {
    this.log = log;
  }

  /** Empties the chat and shows a hint. */
  reset(hint: string): void {
    clear(this.log);
    this.log.appendChild(h("p", { class: "hint" }, hint));
  }

  /** Shows a stored session's messages. */
  showHistory(messages: readonly DevMessage[]): void {
    clear(this.log);
    let reply: HTMLElement | undefined;
    for (const message of messages) {
      if (message.role === "user") {
        this.addUser(message.text);
        reply = undefined;
      } else if (message.role === "assistant" || message.role === "tool") {
        if (reply === undefined) {
          const body = h("div", { class: "bubble-body" });
          reply = body;
          this.log.appendChild(
            h("article", { class: "message assistant" }, h("div", { class: "who" }, "agent"), body),
          );
        }
        if (message.role === "tool")
          append(
            reply,
            h(
              "div",
              { class: "tool-note" },
              h("span", { class: "tool-name" }, `← ${message.toolName ?? "tool"}`),
              " ",
              h("code", {}, formatJson(message.text, { maxChars: 200 })),
            ),
          );
        else {
          if (message.text !== "") append(reply, h("p", { class: "text" }, message.text));
          for (const call of message.toolCalls ?? [])
            append(
              reply,
              h(
                "div",
                { class: "tool-note" },
                h("span", { class: "tool-name" }, `→ ${call.name}`),
                " ",
                h("code", {}, formatJson(call.arguments, { maxChars: 200 })),
              ),
            );
        }
      }
    }
    if (messages.length === 0) this.reset("This session has no messages yet.");
    this.scroll();
  }

  /** Adds the user's message. */
  addUser(text: string): void {
    this.log.querySelector(".hint")?.remove();
    this.log.appendChild(
      h(
        "article",
        { class: "message user", "aria-label": "your message" },
        h("div", { class: "who" }, "you"),
        h("p", { class: "text" }, text),
      ),
    );
    this.scroll();
  }

  /** Starts an agent reply. */
  startReply(): AssistantReply {
    const reply = new AssistantReply();
    this.log.appendChild(reply.element);
    this.scroll();
    return reply;
  }

  /**
   * Shows the calls waiting for approval with Approve and Deny buttons; `decide` gets the decisions once every
   * call has one. Focus moves to the first button, so the keyboard can answer at once.
   */
  showApproval(calls: readonly PendingCall[], decide: (decisions: ApprovalDecisions) => void): HTMLElement {
    const decisions: ApprovalDecisions = { approve: [], deny: [] };
    const card = h(
      "section",
      { class: "approval", "aria-label": "approval needed" },
      h("h3", {}, calls.length === 1 ? "Approval needed" : `Approval needed for ${calls.length} calls`),
    );
    for (const call of calls) {
      const state = h("span", { class: "decision", "aria-live": "polite" });
      const choose = (approved: boolean) => () => {
        (approved ? decisions.approve : decisions.deny).push(call.toolCallId);
        approveButton.disabled = true;
        denyButton.disabled = true;
        state.textContent = approved ? "approved" : "denied";
        if (decisions.approve.length + decisions.deny.length === calls.length) decide(decisions);
      };
      const approveButton = h(
        "button",
        { type: "button", class: "approve", onclick: choose(true) },
        `Approve ${call.toolName}`,
      );
      const denyButton = h("button", { type: "button", class: "deny", onclick: choose(false) }, "Deny");
      card.appendChild(
        h(
          "div",
          { class: "approval-call" },
          h(
            "div",
            { class: "approval-title" },
            h("span", { class: "tool-name" }, call.toolName),
            call.agent === undefined ? "" : ` in ${call.agent}`,
            h("span", { class: "muted" }, ` · ${call.toolCallId}`),
          ),
          h("pre", { class: "arguments" }, formatJson(call.arguments, { pretty: true })),
          h("div", { class: "buttons" }, approveButton, denyButton, state),
        ),
      );
    }
    this.log.appendChild(card);
    this.scroll();
    card.querySelector<HTMLButtonElement>("button.approve")?.focus();
    return card;
  }

  /** Shows a failure in the chat. */
  showError(message: string): void {
    this.log.appendChild(h("p", { class: "error-text", role: "alert" }, message));
    this.scroll();
  }

  private scroll(): void {
    this.log.scrollTop = this.log.scrollHeight;
  }
}
