import { describe, expect, it } from "vitest";
import { RunEntry, type RunRead } from "./run-entry.js";
import { countingStream } from "./test-utils/counting-stream.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
const textOf = (read: RunRead) =>
  "item" in read ? read.item.text : "final" in read ? read.final : "evicted";

function entryOf(
  stream: ReturnType<typeof countingStream>["stream"],
  caps = { maxEvents: 100, maxChars: 1e6 },
) {
  return new RunEntry({ stream, runId: "r", ...caps });
}

describe("RunEntry: one event at a time", () => {
  it("pulls an event only when a reader wants one (a reader that stops pauses the run)", async () => {
    const { stream, pulled } = countingStream({ count: 50 });
    const entry = entryOf(stream);
    const cursor = entry.attach(0);
    await tick();
    expect(pulled.count).toBe(0); // nobody asked yet
    for (let i = 0; i < 3; i++) await entry.read(cursor);
    await tick();
    expect(pulled.count).toBe(3); // no read-ahead while the reader holds still
    await tick();
    expect(pulled.count).toBe(3);
  });

  it("reads the events in order with stable ids, then the result", async () => {
    const { stream } = countingStream({ count: 2 });
    const entry = entryOf(stream);
    const cursor = entry.attach(0);
    const texts: string[] = [];
    while (true) {
      const read = await entry.read(cursor);
      texts.push(textOf(read));
      if (!("item" in read)) break;
    }
    expect(texts[0]).toMatch(/^id: 1\ndata: \{"type":"loop_start"/);
    expect(texts[1]).toMatch(/^id: 1\.1\.[a-z0-9]+\ndata: \{"type":"text_delta"/);
    expect(texts[2]).toMatch(/^id: 1\.2\.[a-z0-9]+\ndata: /);
    expect(texts[3]).toMatch(/^id: 2\ndata: \{"type":"loop_end"/);
    expect(texts[4]).toMatch(/^event: result\ndata: \{"runId":"r","stopReason":"completed"/);
    expect(entry.ended).toBe(true);
  });

  it("a stream that fails ends with event: error", async () => {
    const { stream } = countingStream({ events: [], error: new TypeError("store down") });
    const entry = entryOf(stream);
    const read = await entry.read(entry.attach(0));
    expect(textOf(read)).toBe('event: error\ndata: {"name":"TypeError","message":"store down"}\n\n');
    await expect(stream.result).rejects.toThrow("store down"); // reported to who reads it, not unhandled
  });
});

describe("RunEntry: readers that go away", () => {
  it("detached (the last reader left): the run is drained to its end into the ring", async () => {
    const { stream, pulled } = countingStream({ count: 20 });
    const entry = entryOf(stream);
    const cursor = entry.attach(0);
    await entry.read(cursor);
    entry.detach(cursor, false);
    await entry.finished;
    expect(pulled.count).toBe(22);
    expect(entry.complete).toBe(true);
    // A reader that comes back reads it all from the ring.
    const again = entry.attach(entry.positionAfter({ stable: 1, volatile: 0 }) as number);
    expect(textOf(await entry.read(again))).toContain('"delta":"w0 "');
  });

  it("abort: the run is aborted now and its last events drained", async () => {
    const { stream, controller } = countingStream({ count: 20 });
    const entry = entryOf(stream);
    const cursor = entry.attach(0);
    await entry.read(cursor);
    entry.detach(cursor, true);
    expect(controller.signal.aborted).toBe(true);
    await entry.finished;
    expect((await stream.result).stopReason).toBe("aborted");
  });

  it("with two readers the fastest sets the pace; one that falls out of the ring is ended without a result", async () => {
    const { stream } = countingStream({ count: 30 });
    const entry = entryOf(stream, { maxEvents: 5, maxChars: 1e6 });
    const slow = entry.attach(0);
    const fast = entry.attach(0);
    await entry.read(slow);
    let read: RunRead;
    do read = await entry.read(fast);
    while ("item" in read);
    expect(entry.ended).toBe(true);
    expect(await entry.read(slow)).toEqual({ evicted: true });
  });
});

describe("RunEntry: the ring", () => {
  it("keeps at most maxEvents and maxChars (never the newest message), and knows whether it is complete", async () => {
    const { stream } = countingStream({ count: 40 });
    const entry = entryOf(stream, { maxEvents: 10, maxChars: 400 });
    const cursor = entry.attach(0);
    entry.detach(cursor, false);
    await entry.finished;
    expect(entry.complete).toBe(false);
    expect(entry.chars).toBeLessThanOrEqual(400);
    expect(entry.positionAfter({ stable: 1, volatile: 0 })).toBeUndefined(); // evicted
    expect(entry.positionAfter({ stable: 0, volatile: 0 })).toBeUndefined(); // not from the start
    // The last event (loop_end, stable 2) is still there.
    expect(entry.positionAfter({ stable: 2, volatile: 0 })).toBeDefined();
    entry.shed(1e9);
    expect(entry.positionAfter({ stable: 2, volatile: 0 })).toBeDefined(); // the newest stays
  });

  it("a volatile id is found only in the stream that sent it (its epoch)", async () => {
    const { stream } = countingStream({ count: 3 });
    const entry = entryOf(stream);
    const cursor = entry.attach(0);
    await entry.read(cursor);
    const second = await entry.read(cursor);
    const id = "item" in second ? second.item.id : undefined;
    expect(id?.epoch).toMatch(/^[a-z0-9]{6}$/);
    expect(entry.positionAfter(id as NonNullable<typeof id>)).toBe(2);
    expect(entry.positionAfter({ stable: 1, volatile: 1, epoch: "other1" })).toBeUndefined();
  });
});
