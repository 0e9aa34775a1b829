import { describe, expect, it } from "vitest";
import { MemoryJournal } from "../durable/memory-journal.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { durableStream } from "./durable-stream.js";
import { parseEventId } from "./event-id.js";
import { RunEventLog } from "./run-event-log.js";
import { createTestAgent, WEATHER_ANSWER } from "./test-utils/sse-test-agent.js";
import { toSSEResponse } from "./to-sse-response.js";

/** The messages of a response (comments left out), read until `count` of them when given (then cancelled). */
async function messages(response: Response, count = Number.POSITIVE_INFINITY): Promise<string[]> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const out: string[] = [];
  let buffer = "";
  while (out.length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const parts = buffer.split("\n\n");
    buffer = parts.pop() as string;
    out.push(...parts.filter((p) => !p.startsWith(":")));
  }
  if (out.length >= count) await reader.cancel();
  return out.slice(0, count);
}

const idOf = (message: string | undefined) => /^id: (.+)$/m.exec(message ?? "")?.[1];

describe("durableStream", () => {
  it("a reconnect to a run in the log gets exactly the messages after Last-Event-ID", async () => {
    const { agent } = createTestAgent({ journal: new MemoryJournal(), streamDelayMs: 2 });
    const log = new RunEventLog();
    const first = await messages(
      toSSEResponse(durableStream({ agent, runId: "r1", input: "Weather?", log })),
      6,
    );
    await log.get("r1")?.finished;
    const rest = await messages(
      toSSEResponse(durableStream({ agent, runId: "r1", lastEventId: idOf(first.at(-1)), log })),
    );
    const whole = await messages(toSSEResponse(durableStream({ agent, runId: "r1", log })));
    expect([...first, ...rest]).toEqual(whole);
    expect(whole.at(-1)).toContain(`"text":"${WEATHER_ANSWER}"`);
  });

  it("an id of another stream of the run (another process): skipped by its stable number", async () => {
    const { agent } = createTestAgent({ journal: new MemoryJournal() });
    const log = new RunEventLog();
    const whole = await messages(
      toSSEResponse(durableStream({ agent, runId: "r2", input: "Weather?", log })),
    );
    const stableIds = whole.map(idOf).filter((id) => id !== undefined && !id.includes("."));
    const rest = await messages(
      toSSEResponse(durableStream({ agent, runId: "r2", lastEventId: "3.4.zzzzzz", log })),
    );
    // Stable event 3 is the first turn's model_call: the rest starts at the event after it; nothing is marked.
    expect(rest.map(idOf).filter((id) => id !== undefined && !id.includes("."))).toEqual(stableIds.slice(3));
    expect(rest.some((m) => m.includes('"type":"retry"'))).toBe(false);
  });

  it("when the log let the messages go while the run goes on, the reconnect waits for its end and replays the journal", async () => {
    const journal = new MemoryJournal();
    const { agent, scripted } = createTestAgent({ journal, streamDelayMs: 5 });
    const log = new RunEventLog({ maxEvents: 3 });
    const first = await messages(
      toSSEResponse(durableStream({ agent, runId: "r3", input: "Weather?", log })),
      2,
    );
    const entry = log.get("r3");
    const last = parseEventId(idOf(first.at(-1)));
    await expect.poll(() => entry?.positionAfter(last)).toBeUndefined(); // evicted, the run going on
    expect(entry?.ended).toBe(false);
    const rest = await messages(
      toSSEResponse(durableStream({ agent, runId: "r3", lastEventId: idOf(first.at(-1)), log })),
    );
    expect(entry?.ended).toBe(true); // it waited
    expect(log.get("r3")).not.toBe(entry); // and answered from a replay of the journal
    expect(scripted.calls).toHaveLength(2); // the replay called nothing
    expect(rest.at(-1)).toMatch(/^event: result\ndata: \{"runId":"r3","stopReason":"completed"/);
    const stable = [...first, ...rest].map(idOf).filter((id) => id !== undefined && !id.includes("."));
    expect(stable).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
  });

  it("a run the journal does not know, without input: event: error", async () => {
    const { agent } = createTestAgent({ journal: new MemoryJournal() });
    const text = await toSSEResponse(
      durableStream({ agent, runId: "unknown", log: new RunEventLog() }),
    ).text();
    expect(text).toMatch(
      /^event: error\ndata: \{"name":"InvalidArgumentError","message":".*the task is empty/,
    );
  });

  it("refuses a bad run id or Last-Event-ID at once", () => {
    const { agent } = createTestAgent({ journal: new MemoryJournal() });
    expect(() => durableStream({ agent, runId: "" })).toThrow(InvalidArgumentError);
    expect(() => durableStream({ agent, runId: "r", lastEventId: "nope" })).toThrow(InvalidArgumentError);
  });
});
