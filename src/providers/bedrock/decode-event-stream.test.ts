import { describe, expect, it } from "vitest";
import { ResponseTooLargeError } from "../../errors/response-too-large-error.js";
import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import { randomSplits } from "../openai/test-utils/fixtures.js";
import { crc32 } from "./crc32.js";
import { EventStreamDecoder, type EventStreamMessage } from "./decode-event-stream.js";
import { encodeEventStreamMessage } from "./test-utils/encode-event-stream.js";
import { FAILURE_VECTORS, SUCCESS_VECTORS } from "./test-utils/event-stream-test-vectors.js";
import { listFixtures, readFixture } from "./test-utils/fixtures.js";

const URL_SHOWN = "http://bedrock.test/model/m";

/** A decoded message with its payload as hex (the decoder hands out views of the input's buffers). */
type Decoded = { headers: EventStreamMessage["headers"]; payload: string };

function decodeAll(bytes: Uint8Array, cuts: readonly number[] = []): Decoded[] {
  const decoder = new EventStreamDecoder({ url: URL_SHOWN });
  const messages: EventStreamMessage[] = [];
  let start = 0;
  for (const end of [...cuts, bytes.length]) {
    messages.push(...decoder.push(bytes.subarray(start, end)));
    start = end;
  }
  expect(decoder.pendingBytes).toBe(0);
  return messages.map((m) => ({ headers: m.headers, payload: Buffer.from(m.payload).toString("hex") }));
}

describe("crc32", () => {
  it("gives the standard check value and the CRCs of the AWS test vectors", () => {
    expect(crc32(Buffer.from("123456789"))).toBe(0xcbf43926);
    expect(crc32(Buffer.alloc(0))).toBe(0);
    // empty_message: the prelude CRC and the message CRC are the vector's last bytes of each part.
    const empty = Buffer.from(SUCCESS_VECTORS.empty_message?.hex ?? "", "hex");
    expect(crc32(empty, 0, 8)).toBe(empty.readUInt32BE(8));
    expect(crc32(empty, 0, 12)).toBe(empty.readUInt32BE(12));
  });
});

describe("EventStreamDecoder: the AWS event-stream test vectors", () => {
  it.each(Object.entries(SUCCESS_VECTORS))("decodes %s to its published headers and payload", (_, vector) => {
    const bytes = Buffer.from(vector.hex, "hex");
    const [message, ...rest] = decodeAll(bytes);
    expect(rest).toEqual([]);
    expect(message?.headers).toEqual(vector.headers);
    expect(Buffer.from(message?.payload ?? "", "hex").toString("utf8")).toBe(vector.payload);
    // The same bytes split at every offset decode the same.
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(decodeAll(bytes, [cut])).toEqual([message]);
    }
  });

  it.each(Object.entries(FAILURE_VECTORS))("refuses %s with a clear, retryable error", (_, vector) => {
    const decoder = new EventStreamDecoder({ url: URL_SHOWN });
    const bytes = Buffer.from(vector.hex, "hex");
    let caught: unknown;
    try {
      [...decoder.push(bytes)];
    } catch (error) {
      caught = error;
    }
    expect(StreamInterruptedError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toMatch(vector.reason);
    expect((caught as Error).message).toContain(
      `Model stream from ${URL_SHOWN} sent a malformed event-stream frame`,
    );
  });

  it("checks the prelude as soon as its 12 bytes are in (a corrupted length does not wait for its bytes)", () => {
    const bytes = Buffer.from(FAILURE_VECTORS.corrupted_length?.hex ?? "", "hex");
    const decoder = new EventStreamDecoder({ url: URL_SHOWN });
    expect([...decoder.push(bytes.subarray(0, 11))]).toEqual([]);
    expect(() => [...decoder.push(bytes.subarray(11, 12))]).toThrow(/prelude CRC mismatch/);
  });
});

describe("EventStreamDecoder: recorded Bedrock streams", () => {
  const streams = listFixtures().filter((name) => name.endsWith(".eventstream"));

  it.each(streams)("%s: every frame decodes, whole or re-chunked at random byte boundaries", (name) => {
    const bytes = readFixture(name);
    const whole = decodeAll(bytes);
    expect(whole.length).toBeGreaterThan(5);
    for (const message of whole) {
      expect(message.headers[":message-type"]).toBe("event");
      expect(message.headers[":content-type"]).toBe("application/json");
      expect(typeof message.headers[":event-type"]).toBe("string");
    }
    for (const seed of [1, 2, 3, 4, 5]) {
      expect(decodeAll(bytes, randomSplits(bytes.length, seed, 7))).toEqual(whole);
    }
    // One byte at a time.
    expect(
      decodeAll(
        bytes,
        Array.from({ length: bytes.length - 1 }, (_, i) => i + 1),
      ),
    ).toEqual(whole);
  });

  it.each(streams)("%s: flipping any payload byte of a frame fails its message CRC", (name) => {
    const bytes = Buffer.from(readFixture(name));
    const total = bytes.readUInt32BE(0);
    for (const at of [12 + bytes.readUInt32BE(4), total - 5, total - 1]) {
      const damaged = Buffer.from(bytes);
      damaged[at] = (damaged[at] as number) ^ 0x01;
      expect(() => decodeAll(damaged)).toThrow(/message CRC mismatch/);
    }
  });
});

describe("EventStreamDecoder: a damaged frame after good ones", () => {
  it("delivers the good frames of a chunk before the error of the damaged one", () => {
    const good = encodeEventStreamMessage({ headers: { n: "1" }, payload: "{}" });
    const bad = Buffer.from(encodeEventStreamMessage({ headers: { n: "2" }, payload: "{}" }));
    bad[bad.length - 5] = (bad[bad.length - 5] as number) ^ 0xff;
    const decoder = new EventStreamDecoder({ url: URL_SHOWN });
    const seen: unknown[] = [];
    expect(() => {
      for (const message of decoder.push(Buffer.concat([good, bad]))) seen.push(message.headers.n);
    }).toThrow(/message CRC mismatch/);
    expect(seen).toEqual(["1"]);
  });
});

describe("EventStreamDecoder: bounds", () => {
  it("refuses a message over maxMessageBytes before reading it", () => {
    const frame = encodeEventStreamMessage({ headers: { a: "b" }, payload: "x".repeat(100) });
    const decoder = new EventStreamDecoder({ url: URL_SHOWN, maxMessageBytes: 64 });
    let caught: unknown;
    try {
      [...decoder.push(frame.subarray(0, 12))];
    } catch (error) {
      caught = error;
    }
    expect(ResponseTooLargeError.isInstance(caught)).toBe(true);
    expect((caught as Error).message).toMatch(/maxSseEventBytes/);
  });

  it("refuses impossible lengths and unknown header types", () => {
    const short = Buffer.alloc(12);
    short.writeUInt32BE(8, 0);
    short.writeUInt32BE(crc32(short, 0, 8), 8);
    expect(() => decodeAll(short)).toThrow(/impossible lengths/);

    const frame = Buffer.from(encodeEventStreamMessage({ headers: { k: "v" }, payload: "{}" }));
    frame[12 + 2] = 42; // the header's type byte
    frame.writeUInt32BE(crc32(frame, 0, frame.length - 4), frame.length - 4);
    expect(() => decodeAll(frame)).toThrow(/unknown value type 42/);
  });

  it("reports the bytes of a frame cut short", () => {
    const frame = encodeEventStreamMessage({ headers: { k: "v" }, payload: "{}" });
    const decoder = new EventStreamDecoder({ url: URL_SHOWN });
    expect([...decoder.push(frame.subarray(0, 20))]).toEqual([]);
    expect(decoder.pendingBytes).toBe(20);
  });
});
