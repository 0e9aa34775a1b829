import { describeEvent } from "./describe-event.js";
import { append, clear, h } from "./dom.js";
import { formatCount, formatMs, formatUsd } from "./format.js";
import type { AgentEvent, RunResultSummary } from "./types.js";

/**
 * A run's timeline: one entry per event (model calls with tokens and cost, tool calls with arguments and
 * results, retries, compaction, guardrails…), a sub-agent's events nested in a group under its path
 * (`event.agent`), and the run's totals at the end. All text is set as text.
 */
export class TimelineView {
  private readonly root: HTMLOListElement;
  private readonly follow: boolean;
  private groups = new Map<string, HTMLOListElement>();
  private startedAt: number | undefined;
  private count = 0;

  /** `follow`: scroll each new entry into view (a live run); off for a whole run shown at once. */
  constructor(root: HTMLOListElement, { follow = true }: { follow?: boolean } = {}) {
    this.root = root;
    this.follow = follow;
  }

  /** Empties the timeline (optionally with a hint). */
  reset(hint?: string): void {
    clear(this.root);
    this.groups = new Map();
    this.startedAt = undefined;
    this.count = 0;
    if (hint !== undefined) this.root.appendChild(h("li", { class: "hint" }, hint));
  }

  /** How many entries it shows. */
  get size(): number {
    return this.count;
  }

  /** The list a sub-agent's (or the run's) entries go in, creating the groups of its path. */
  private containerOf(agent: string | undefined): HTMLOListElement {
    if (agent === undefined) return this.root;
    const existing = this.groups.get(agent);
    if (existing !== undefined) return existing;
    const parts = agent.split("/");
    const parent = parts.length > 2 ? this.containerOf(parts.slice(0, -1).join("/")) : this.root;
    const list = h("ol", { class: "timeline nested" });
    parent.appendChild(
      h(
        "li",
        { class: "group" },
        h(
          "details",
          { open: true },
          h("summary", {}, h("span", { class: "badge" }, "sub-agent"), ` ${agent}`),
          list,
        ),
      ),
    );
    this.groups.set(agent, list);
    return list;
  }

  /** Adds an event (streamed fragments are skipped: see `describeEvent`). */
  add(event: AgentEvent): void {
    const entry = describeEvent(event);
    if (entry === undefined) return;
    this.root.querySelector(":scope > li.hint")?.remove();
    this.startedAt ??= event.timestamp;
    const main = h("div", { class: "entry-main" }, h("div", { class: "title" }, entry.title));
    if (entry.meta !== undefined && entry.meta !== "")
      main.appendChild(h("div", { class: "meta" }, entry.meta));
    for (const detail of entry.details ?? []) {
      if (detail.text === "") continue;
      main.appendChild(h("details", {}, h("summary", {}, detail.label), h("pre", {}, detail.text)));
    }
    const item = h(
      "li",
      {
        class: `entry tone-${entry.tone}${event.replayed === true ? " replayed" : ""}`,
        "data-type": event.type,
      },
      h("span", { class: "badge" }, entry.badge),
      main,
      h(
        "span",
        { class: "when", title: new Date(event.timestamp).toISOString() },
        `+${formatMs(event.timestamp - this.startedAt)}`,
      ),
    );
    this.containerOf(event.agent).appendChild(item);
    this.count++;
    if (this.follow) item.scrollIntoView?.({ block: "nearest" });
  }

  /** Adds the run's outcome and totals. */
  addResult(result: RunResultSummary): void {
    const totals = `${result.turns} turn${result.turns === 1 ? "" : "s"} · ${formatCount(result.usage.inputTokens)} in / ${formatCount(result.usage.outputTokens)} out tokens · ${formatUsd(result.costUsd)}`;
    const item = h(
      "li",
      {
        class: `entry summary tone-${result.stopReason === "completed" ? "ok" : "warn"}`,
        "data-type": "result",
      },
      h("span", { class: "badge" }, "total"),
      h("div", { class: "entry-main" }, h("div", { class: "title" }, `${result.stopReason} · ${totals}`)),
    );
    if (result.error !== undefined)
      append(
        item.querySelector(".entry-main") as HTMLElement,
        h("div", { class: "meta error-text" }, `${result.error.name}: ${result.error.message}`),
      );
    this.root.appendChild(item);
  }

  /** Adds a line saying the stream failed. */
  addFailure(message: string): void {
    this.root.appendChild(
      h(
        "li",
        { class: "entry tone-error" },
        h("span", { class: "badge" }, "error"),
        h("div", { class: "entry-main" }, h("div", { class: "title" }, message)),
      ),
    );
  }
}
