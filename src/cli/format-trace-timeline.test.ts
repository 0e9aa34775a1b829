import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../loop/agent-event.js";
import { createAnsiStyle, stripAnsi } from "../render/ansi-style.js";
import { TRACE_VERSION, type Trace, type TraceRecord } from "../trace/trace-types.js";
import { formatTraceTimeline } from "./format-trace-timeline.js";
import { subAgentTrace } from "./test-utils/sub-agent-trace.js";

const plain = createAnsiStyle({ enabled: false });

/** A trace of bare event records (the hashes are not checked by the timeline). */
function traceOf(events: AgentEvent[]): Trace {
  const records = events.map(
    (data, seq) => ({ seq: seq + 1, kind: "event", data, prevHash: "", hash: "" }) as TraceRecord,
  );
  return { version: TRACE_VERSION, records };
}

describe("formatTraceTimeline with sub-agents", () => {
  it("indents a sub-agent's events after its path, deeper for a sub-sub-agent; the caller's stay as they were", async () => {
    const lines = formatTraceTimeline({ trace: await subAgentTrace(), style: plain });
    const find = (pattern: RegExp): string => {
      const line = lines.find((l) => pattern.test(l));
      expect(line, `no line matches ${pattern}:\n${lines.join("\n")}`).toBeDefined();
      return line ?? "";
    };
    // The caller's own events: the columns as before, no path.
    find(/turn 1 {2}action {11}research\(\{"input":"population of Paris"\}\) · c1$/);
    find(/turn 1 {2}observation {6}research ok · \d+ ms · "Paris has 2\.1M people\."$/);
    find(/turn 2 {2}loop_end {9}completed · "About 2\.1 million\."$/);
    // The researcher's: two spaces, its path; its turns are its own.
    find(/turn 0 {4}lead\/researcher › loop_start {7}task "population of Paris"$/);
    find(/turn 1 {4}lead\/researcher › action {11}fetch\(\{"input":"https:\/\/example\.com"\}\) · f1$/);
    find(/turn 2 {4}lead\/researcher › loop_end {9}completed · "Paris has 2\.1M people\."$/);
    // The fetcher's: one level deeper.
    find(/turn 0 {6}lead\/researcher\/fetcher › loop_start {7}task "https:\/\/example\.com"$/);
    find(/turn 1 {6}lead\/researcher\/fetcher › text_delta {7}"page"$/);
    // Nothing of a sub-agent appears without its path.
    for (const line of lines) {
      if (/"page"|task "population|task "https/.test(line)) expect(line).toMatch(/lead\/researcher/);
    }
  });

  it("folds consecutive text deltas of one agent only, never a sub-agent's into its caller's", () => {
    const delta = (text: string, agent?: string): AgentEvent => ({
      type: "text_delta",
      turn: 1,
      timestamp: 0,
      data: { delta: text },
      ...(agent !== undefined && { agent }),
    });
    const lines = formatTraceTimeline({
      trace: traceOf([
        delta("Asking."),
        delta(" Now."),
        delta("Par", "lead/a"),
        delta("is", "lead/a"),
        delta("Done."),
      ]),
      style: plain,
    });
    expect(lines.map((line) => line.trim().replace(/ +/g, " "))).toEqual([
      '#1-2 +0 ms turn 1 text_delta ×2 "Asking. Now."',
      '#3-4 +0 ms turn 1 lead/a › text_delta ×2 "Paris"',
      '#5 +0 ms turn 1 text_delta "Done."',
    ]);
  });

  it("dims the path and escapes control characters in it", () => {
    const event: AgentEvent = {
      type: "loop_start",
      turn: 0,
      timestamp: 0,
      data: { task: "t", model: "m" },
      agent: "lead/\u001b[2Jevil",
    };
    const [line] = formatTraceTimeline({
      trace: traceOf([event]),
      style: createAnsiStyle({ enabled: true }),
    });
    expect(line).toContain("\u001b[2mlead/\\e[2Jevil ›\u001b[22m");
    expect(stripAnsi(line ?? "")).toContain("turn 0    lead/\\e[2Jevil › loop_start");
  });
});
