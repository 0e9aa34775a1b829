import type { AgentEvent } from "./types.js";

/** One bar of a waterfall: a model call or a tool call, placed in time. */
export interface WaterfallRow {
  kind: "model" | "tool";
  /** `turn 2 · openai:gpt-4o-mini`, `add`. */
  label: string;
  /** Tokens and cost of a model call; the result of a tool call (cut). */
  detail: string;
  /** Milliseconds from the waterfall's start. */
  startMs: number;
  endMs: number;
  ok: boolean;
  turn: number;
  /** The sub-agent's path, for a call inside a sub-agent. */
  agent: string | undefined;
  /** 0 for the run's own calls, 1 for a sub-agent's, 2 for its sub-agent's… */
  depth: number;
}

/** A point in time worth marking: a retry, a fallback, a compaction, a guardrail, a pause for approval. */
export interface WaterfallMarker {
  atMs: number;
  kind: "retry" | "model_fallback" | "compaction" | "guardrail" | "approval_requested";
  label: string;
}

/** The bars and markers of a recorded run, in time order. */
export interface Waterfall {
  rows: WaterfallRow[];
  markers: WaterfallMarker[];
  /** When the run started (ms since the epoch), and how long the waterfall spans. */
  startedAt: number;
  durationMs: number;
}

const MARKED = new Set(["retry", "model_fallback", "compaction", "guardrail", "approval_requested"]);

function depthOf(agent: string | undefined): number {
  return agent === undefined ? 0 : agent.split("/").length - 1 || 1;
}

/** The last name of a sub-agent's path (`lead/researcher` → `researcher`): the row's indent shows the rest. */
function shortName(agent: string): string {
  return agent.slice(agent.lastIndexOf("/") + 1);
}

function markerLabel(event: AgentEvent): string {
  switch (event.type) {
    case "retry":
      return `retry ${event.data.attempt} (${event.data.source}): ${event.data.error}`;
    case "model_fallback":
      return `fallback ${event.data.from} → ${event.data.to}`;
    case "compaction":
      return `compaction: ${event.data.tokensBefore} → ${event.data.tokensAfter} tokens`;
    case "guardrail":
      return `guardrail ${event.data.name}: ${event.data.reason}`;
    case "approval_requested":
      return `paused for approval: ${event.data.calls.map((call) => call.toolName).join(", ")}`;
    default:
      return event.type;
  }
}

/**
 * Places a run's model calls and tool calls in time, from its events: a model call ends at its `model_call`
 * event and lasts `latencyMs`; a tool call runs from its `action` to its `observation` (or `durationMs` before
 * the observation when there was no action, e.g. a result replayed from a log).
 */
export function buildWaterfall(events: readonly AgentEvent[]): Waterfall {
  const rows: Array<Omit<WaterfallRow, "startMs" | "endMs"> & { start: number; end: number }> = [];
  const markers: Array<{ at: number; kind: WaterfallMarker["kind"]; label: string }> = [];
  const started = new Map<string, number>();
  for (const event of events) {
    const agent = event.agent;
    const depth = depthOf(agent);
    if (event.type === "model_call") {
      const { usage, costUsd, latencyMs, model, finishReason } = event.data;
      rows.push({
        kind: "model",
        label: `${agent === undefined ? "" : `${shortName(agent)} · `}turn ${event.turn}`,
        detail: `${model} · ${usage.inputTokens} in / ${usage.outputTokens} out tokens · $${costUsd.toFixed(6)} · ${finishReason.unified}`,
        start: event.timestamp - latencyMs,
        end: event.timestamp,
        ok: finishReason.unified !== "error",
        turn: event.turn,
        agent,
        depth,
      });
    } else if (event.type === "action") {
      started.set(`${agent ?? ""}|${event.data.toolCallId}`, event.timestamp);
    } else if (event.type === "observation") {
      const start =
        started.get(`${agent ?? ""}|${event.data.toolCallId}`) ?? event.timestamp - event.data.durationMs;
      const result =
        event.data.result.length > 120 ? `${event.data.result.slice(0, 120)}…` : event.data.result;
      rows.push({
        kind: "tool",
        label: `${agent === undefined ? "" : `${shortName(agent)} · `}${event.data.toolName}`,
        detail: `${event.data.ok ? "ok" : "failed"} · ${result}`,
        start,
        end: Math.max(start, event.timestamp),
        ok: event.data.ok,
        turn: event.turn,
        agent,
        depth,
      });
    } else if (MARKED.has(event.type)) {
      markers.push({
        at: event.timestamp,
        kind: event.type as WaterfallMarker["kind"],
        label: markerLabel(event),
      });
    }
  }
  const first = events.find((event) => event.type === "loop_start")?.timestamp;
  const times = [...rows.map((row) => row.start), ...markers.map((marker) => marker.at)];
  const startedAt = Math.min(first ?? Number.POSITIVE_INFINITY, ...times);
  const ends = [
    ...rows.map((row) => row.end),
    ...markers.map((marker) => marker.at),
    ...events.map((e) => e.timestamp),
  ];
  if (!Number.isFinite(startedAt)) return { rows: [], markers: [], startedAt: 0, durationMs: 0 };
  const durationMs = Math.max(1, Math.max(...ends) - startedAt);
  return {
    rows: rows
      .sort((a, b) => a.start - b.start || b.end - a.end)
      .map(({ start, end, ...row }) => ({ ...row, startMs: start - startedAt, endMs: end - startedAt })),
    markers: markers.map(({ at, ...marker }) => ({ ...marker, atMs: at - startedAt })),
    startedAt,
    durationMs,
  };
}
