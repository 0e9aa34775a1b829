import { buildWaterfall, type Waterfall } from "./build-waterfall.js";
import { clear, h } from "./dom.js";
import { formatClock, formatMs } from "./format.js";
import { TimelineView } from "./timeline-view.js";
import type { DevReplayOutcome, DevTraceView } from "./types.js";

/** Options of {@link TraceView}. */
export interface TraceViewOptions {
  root: HTMLElement;
  /** Replays the trace on the server. */
  replay(name: string): Promise<DevReplayOutcome>;
}

/** A bar's position in percent of the track (at least a sliver, so a 0 ms call still shows). */
function place(startMs: number, endMs: number, durationMs: number): { left: number; width: number } {
  const left = (startMs / durationMs) * 100;
  return {
    left: Math.min(left, 99.5),
    width: Math.max(0.5, Math.min(100 - left, ((endMs - startMs) / durationMs) * 100)),
  };
}

function renderWaterfall(waterfall: Waterfall): HTMLElement {
  const table = h("div", {
    class: "waterfall",
    role: "table",
    "aria-label": "model and tool calls over time",
  });
  table.appendChild(
    h(
      "div",
      { class: "wf-row wf-head", role: "row" },
      h("span", { role: "columnheader", class: "wf-label" }, "call"),
      h("span", { role: "columnheader", class: "wf-track-head" }, `0 — ${formatMs(waterfall.durationMs)}`),
    ),
  );
  for (const row of waterfall.rows) {
    const { left, width } = place(row.startMs, row.endMs, waterfall.durationMs);
    const bar = h("span", {
      class: `wf-bar wf-${row.kind}${row.ok ? "" : " wf-failed"}`,
      title: `${row.label}: ${formatMs(row.endMs - row.startMs)} · ${row.detail}`,
    });
    bar.style.left = `${left}%`;
    bar.style.width = `${width}%`;
    const label = h(
      "span",
      { role: "cell", class: "wf-label" },
      h("span", { class: `wf-kind wf-kind-${row.kind}` }, row.kind === "model" ? "model" : "tool"),
      ` ${row.label}`,
    );
    label.style.paddingInlineStart = `${row.depth * 1.1}rem`;
    table.appendChild(
      h(
        "div",
        { class: "wf-row", role: "row", "data-kind": row.kind },
        label,
        h("span", { role: "cell", class: "wf-track" }, bar),
        h(
          "span",
          { role: "cell", class: "wf-detail" },
          h(
            "span",
            { class: "wf-time" },
            `at ${formatMs(row.startMs)}, ${formatMs(row.endMs - row.startMs)}`,
          ),
          ` · ${row.detail}`,
        ),
      ),
    );
  }
  for (const marker of waterfall.markers) {
    const { left } = place(marker.atMs, marker.atMs, waterfall.durationMs);
    const pin = h("span", { class: `wf-marker wf-marker-${marker.kind}`, title: marker.label });
    pin.style.left = `${left}%`;
    table.appendChild(
      h(
        "div",
        { class: "wf-row wf-marker-row", role: "row" },
        h("span", { role: "cell", class: "wf-label" }, marker.kind.replace(/_/g, " ")),
        h("span", { role: "cell", class: "wf-track" }, pin),
        h("span", { role: "cell", class: "wf-detail" }, marker.label),
      ),
    );
  }
  if (waterfall.rows.length === 0)
    table.appendChild(h("p", { class: "hint" }, "This trace records no model or tool calls."));
  return table;
}

/** A saved trace: what it started from, its hash check, its calls as a waterfall, and a Replay button. */
export class TraceView {
  private readonly options: TraceViewOptions;

  constructor(options: TraceViewOptions) {
    this.options = options;
  }

  /** Shows a hint instead of a trace. */
  reset(hint: string): void {
    clear(this.options.root);
    this.options.root.appendChild(h("p", { class: "hint" }, hint));
  }

  /** Shows `view`. */
  show(view: DevTraceView): void {
    const { root } = this.options;
    clear(root);
    const waterfall = buildWaterfall(view.events);
    const verified = view.verified.ok
      ? h("span", { class: "pill pill-ok" }, "hash chain verified")
      : h(
          "span",
          { class: "pill pill-error" },
          `broken at record ${view.verified.brokenAt}: ${view.verified.reason}`,
        );
    const outcome = h("div", { class: "replay-outcome", "aria-live": "polite" });
    const replayed = h("ol", { class: "timeline" });
    const replayButton = h("button", { type: "button", class: "primary", id: "replay" }, "Replay");
    replayButton.addEventListener(
      "click",
      () => void this.replay(view.name, replayButton, outcome, replayed),
    );
    root.append(
      h(
        "div",
        { class: "trace-head" },
        h("h3", {}, view.name),
        h(
          "div",
          { class: "meta" },
          `${view.model} · ${view.records} records · started ${view.startedAt > 0 ? formatClock(view.startedAt) : "?"} · tools: ${view.tools.join(", ") || "none"}`,
        ),
        h(
          "div",
          { class: "meta" },
          "input: ",
          h("q", {}, view.input === "" ? "(a paused run's second part)" : view.input),
        ),
        h("div", { class: "buttons" }, verified, replayButton),
      ),
      renderWaterfall(waterfall),
      outcome,
      replayed,
    );
  }

  private async replay(
    name: string,
    button: HTMLButtonElement,
    outcome: HTMLElement,
    list: HTMLOListElement,
  ): Promise<void> {
    button.disabled = true;
    clear(outcome);
    outcome.appendChild(h("p", { class: "muted" }, "Replaying…"));
    try {
      const result = await this.options.replay(name);
      clear(outcome);
      const by = result.agent === "loaded" ? "with the loaded agent" : "with an agent rebuilt from the trace";
      outcome.appendChild(
        result.divergence === null
          ? h("p", { class: "pill pill-ok" }, `replayed ${by}: no divergence · ${result.result.stopReason}`)
          : h(
              "div",
              { class: "divergence" },
              h(
                "p",
                { class: "pill pill-error" },
                `diverged at model call ${result.divergence.call}${result.divergence.path === "" ? "" : ` (${result.divergence.path})`}`,
              ),
              h(
                "details",
                { open: true },
                h("summary", {}, "recorded"),
                h("pre", {}, result.divergence.expected),
              ),
              h(
                "details",
                { open: true },
                h("summary", {}, "replayed"),
                h("pre", {}, result.divergence.actual),
              ),
            ),
      );
      const timeline = new TimelineView(list, { follow: false });
      timeline.reset();
      for (const event of result.events) timeline.add(event);
      timeline.addResult(result.result);
    } catch (error) {
      clear(outcome);
      outcome.appendChild(
        h(
          "p",
          { class: "error-text", role: "alert" },
          `Replay failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    } finally {
      button.disabled = false;
    }
  }
}
