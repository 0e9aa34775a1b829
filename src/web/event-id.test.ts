import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../loop/agent-event.js";
import { createEvent } from "../loop/create-event.js";
import { EventIdCounter, eventKind, formatEventId, parseEventId, sameEventId } from "./event-id.js";

describe("event ids", () => {
  it("number stable events from 1 and the others after the last stable one, tagged with the stream", () => {
    const counter = new EventIdCounter();
    const events: AgentEvent[] = [
      createEvent("loop_start", 0, { task: "t", model: "m" }),
      createEvent("turn_start", 1, { model: "m" }),
      createEvent("text_delta", 1, { delta: "a" }),
      createEvent("retry", 1, { attempt: 1, delayMs: 0, error: "x", source: "stream" }),
      createEvent("text_delta", 1, { delta: "b" }),
      createEvent("model_call", 1, {
        model: "m",
        finishReason: { unified: "stop", raw: "stop" },
        usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        latencyMs: 1,
        costUsd: 0,
        priced: true,
      }),
      { ...createEvent("turn_start", 1, { model: "m" }), agent: "lead/helper" },
    ];
    const ids = events.map((event) => formatEventId(counter.next(event).id));
    const e = counter.epoch;
    expect(ids).toEqual(["1", "2", `2.1.${e}`, `2.2.${e}`, `2.3.${e}`, "3", `3.1.${e}`]);
    expect(new EventIdCounter().epoch).not.toBe(e);
  });

  it("tell streamed fragments, other volatile events and stable events apart", () => {
    expect(eventKind(createEvent("text_delta", 1, { delta: "a" }))).toBe("delta");
    expect(eventKind(createEvent("output_delta", 1, { partial: {} }))).toBe("delta");
    expect(eventKind(createEvent("error", 1, { name: "E", message: "m", fatal: false }))).toBe("volatile");
    expect(eventKind({ ...createEvent("text_delta", 1, { delta: "a" }), agent: "a/b" })).toBe("volatile");
    expect(
      eventKind(
        createEvent("observation", 1, {
          toolCallId: "c",
          toolName: "t",
          result: "r",
          ok: true,
          durationMs: 1,
        }),
      ),
    ).toBe("stable");
  });

  it("parse what they format; nothing seen is absent, empty or 0; anything else is refused", () => {
    expect(parseEventId(undefined)).toEqual({ stable: 0, volatile: 0 });
    expect(parseEventId(null)).toEqual({ stable: 0, volatile: 0 });
    expect(parseEventId("0")).toEqual({ stable: 0, volatile: 0 });
    expect(parseEventId("12")).toEqual({ stable: 12, volatile: 0 });
    expect(parseEventId("12.3.abc123")).toEqual({ stable: 12, volatile: 3, epoch: "abc123" });
    for (const bad of ["x", "1.2", "1.2.", "-1", "1.2.ABC", "1 ", `${"9".repeat(14)}`, "1.2.abc\n"]) {
      expect(() => parseEventId(bad), bad).toThrow(/expected an event id/);
    }
  });

  it("compare volatile ids within their stream only", () => {
    expect(sameEventId({ stable: 2, volatile: 0 }, { stable: 2, volatile: 0 })).toBe(true);
    expect(sameEventId({ stable: 2, volatile: 1, epoch: "a" }, { stable: 2, volatile: 1, epoch: "a" })).toBe(
      true,
    );
    expect(sameEventId({ stable: 2, volatile: 1, epoch: "a" }, { stable: 2, volatile: 1, epoch: "b" })).toBe(
      false,
    );
  });
});
