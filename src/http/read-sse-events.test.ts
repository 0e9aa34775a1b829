import { describe, expect, it } from "vitest";
import { readSseEvents } from "./read-sse-events.js";

async function events(chunks: string[]): Promise<Array<{ event?: string | undefined; data: string }>> {
  const out: Array<{ event?: string | undefined; data: string }> = [];
  async function* body() {
    yield* chunks;
  }
  for await (const e of readSseEvents(body())) out.push({ event: e.event, data: e.data });
  return out;
}

describe("readSseEvents", () => {
  it("dispatches a final event that has no terminating blank line (or no newline at all)", async () => {
    expect(await events(["data: a\n\ndata: b\n"])).toEqual([{ data: "a" }, { data: "b" }]);
    expect(await events(["event: x\ndata: a\n\nevent: y\ndata: b"])).toEqual([
      { event: "x", data: "a" },
      { event: "y", data: "b" },
    ]);
  });

  it("handles chunks split anywhere, including inside \\r\\n", async () => {
    expect(await events(["da", "ta: one\r", "\n\r\n", "data: t", "wo\r\n\r\n"])).toEqual([
      { data: "one" },
      { data: "two" },
    ]);
  });

  it("adds nothing after a properly terminated body", async () => {
    expect(await events(["data: a\n\n"])).toEqual([{ data: "a" }]);
  });
});
