import { clear, h } from "./dom.js";
import { formatAgo, formatUsd } from "./format.js";
import type { DevRunInfo } from "./types.js";

/** What the sidebar's items do when chosen. */
export interface SidebarHandlers {
  openSession(sessionId: string): void;
  openRun(runId: string): void;
  openTrace(name: string): void;
}

/** Options of {@link SidebarView}. */
export interface SidebarViewOptions {
  sessions: HTMLElement;
  runs: HTMLElement;
  traces: HTMLElement;
  handlers: SidebarHandlers;
}

function item(
  label: string,
  detail: string,
  onclick: () => void,
  current: boolean,
  extra?: HTMLElement,
): HTMLElement {
  const button = h(
    "button",
    { type: "button", class: "item", "aria-current": current ? "true" : undefined, onclick },
    h("span", { class: "item-label" }, label),
    h("span", { class: "item-detail" }, detail),
  );
  if (extra !== undefined) button.appendChild(extra);
  return h("li", {}, button);
}

function empty(text: string): HTMLElement {
  return h("li", { class: "hint" }, text);
}

/** The sessions, runs and traces lists (each item a button). */
export class SidebarView {
  private readonly options: SidebarViewOptions;

  constructor(options: SidebarViewOptions) {
    this.options = options;
  }

  /** Shows the sessions; `current` is marked. */
  showSessions(sessions: ReadonlyArray<{ sessionId: string; updatedAt: number }>, current: string): void {
    const { sessions: list, handlers } = this.options;
    clear(list);
    for (const session of sessions) {
      list.appendChild(
        item(
          session.sessionId,
          formatAgo(session.updatedAt),
          () => handlers.openSession(session.sessionId),
          session.sessionId === current,
        ),
      );
    }
    if (sessions.length === 0) list.appendChild(empty("No sessions yet: send a message."));
  }

  /** Shows the runs (a paused run is flagged). */
  showRuns(runs: readonly DevRunInfo[], current: string | undefined): void {
    const { runs: list, handlers } = this.options;
    clear(list);
    for (const run of runs) {
      const status = run.stopReason ?? (run.finished ? "finished" : "unfinished");
      const cost = run.costUsd === undefined ? "" : ` · ${formatUsd(run.costUsd)}`;
      const flag = h(
        "span",
        {
          class: `pill ${status === "completed" ? "pill-ok" : status === "awaiting_approval" ? "pill-warn" : "pill-muted"}`,
        },
        status.replace(/_/g, " "),
      );
      list.appendChild(
        item(
          run.input === "" ? run.runId : run.input,
          `${formatAgo(run.updatedAt)}${cost}`,
          () => handlers.openRun(run.runId),
          run.runId === current,
          flag,
        ),
      );
    }
    if (runs.length === 0) list.appendChild(empty("No runs yet."));
  }

  /** Shows the trace files. */
  showTraces(
    traces: ReadonlyArray<{ name: string; size: number; modifiedAt: number }>,
    current: string | undefined,
  ): void {
    const { traces: list, handlers } = this.options;
    clear(list);
    for (const trace of traces) {
      list.appendChild(
        item(
          trace.name,
          `${formatAgo(trace.modifiedAt)} · ${Math.max(1, Math.round(trace.size / 1024))} KB`,
          () => handlers.openTrace(trace.name),
          trace.name === current,
        ),
      );
    }
    if (traces.length === 0) list.appendChild(empty("No traces yet: every run saves one."));
  }
}
