import { describe, expect, it } from "vitest";
import type { EventKind } from "./event-id.js";
import type { RunItem } from "./run-entry.js";
import { retryMarker, SeenFilter } from "./seen-filter.js";

const item = (
  stable: number,
  volatile: number,
  kind: EventKind = volatile === 0 ? "stable" : "delta",
): RunItem => ({
  id: volatile === 0 ? { stable, volatile } : { stable, volatile, epoch: "replay" },
  kind,
  turn: 2,
  text: `${stable}.${volatile}`,
});

/** The decisions for a replayed stream, as `id:decision`. */
function decide(last: { stable: number; volatile: number }, items: RunItem[]): string[] {
  const filter = new SeenFilter(last);
  return items.map((i) => `${i.text}:${filter.decide(i)}`);
}

describe("SeenFilter: what a client saw of another stream of the run", () => {
  const replay = [item(1, 0), item(2, 0), item(2, 1), item(3, 0), item(4, 0)];

  it("nothing seen: everything is sent", () => {
    expect(decide({ stable: 0, volatile: 0 }, replay).every((d) => d.endsWith(":send"))).toBe(true);
  });

  it("a stable id: the events up to it are skipped, the rest sent", () => {
    expect(decide({ stable: 2, volatile: 0 }, replay)).toEqual([
      "1.0:skip",
      "2.0:skip",
      "2.1:send",
      "3.0:send",
      "4.0:send",
    ]);
  });

  it("part of a turn's fragments: a retry marker, then the turn's fragments again, whole", () => {
    expect(decide({ stable: 2, volatile: 7 }, replay)).toEqual([
      "1.0:skip",
      "2.0:skip",
      "2.1:mark",
      "3.0:send",
      "4.0:send",
    ]);
  });

  it("other volatile messages after the stable one are skipped as many as were seen", () => {
    const items = [item(2, 0), item(2, 1, "volatile"), item(2, 2, "volatile"), item(3, 0)];
    expect(decide({ stable: 2, volatile: 1 }, items)).toEqual([
      "2.0:skip",
      "2.1:skip",
      "2.2:send",
      "3.0:send",
    ]);
    const warnedThenText = [item(2, 0), item(2, 1, "volatile"), item(2, 2, "delta")];
    expect(decide({ stable: 2, volatile: 5 }, warnedThenText)).toEqual(["2.0:skip", "2.1:skip", "2.2:mark"]);
  });

  it("a client that saw more than the replay holds gets nothing more (the result follows)", () => {
    expect(decide({ stable: 9, volatile: 0 }, replay).every((d) => d.endsWith(":skip"))).toBe(true);
  });

  it("the marker is a retry event with source stream, without an id", () => {
    const marker = retryMarker(3);
    expect(marker).toMatch(/^data: \{"type":"retry","turn":3,/);
    expect(JSON.parse(marker.slice(6))).toMatchObject({ data: { attempt: 0, delayMs: 0, source: "stream" } });
  });
});
