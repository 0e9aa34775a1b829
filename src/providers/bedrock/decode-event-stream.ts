import { ResponseTooLargeError } from "../../errors/response-too-large-error.js";
import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import { crc32 } from "./crc32.js";

/**
 * The AWS event-stream framing (`application/vnd.amazon.eventstream`), decoded incrementally. One message is
 * `total length (u32 BE) · headers length (u32 BE) · prelude CRC32 (of the first 8 bytes) · headers ·
 * payload · message CRC32 (of everything before it)`. A header is `name length (u8) · name (UTF-8) · type
 * (u8) · value`, the value by type: 0 true, 1 false (no bytes), 2 int8, 3 int16, 4 int32, 5 int64, 6 bytes
 * (u16 length), 7 string (u16 length, UTF-8), 8 timestamp (int64 ms), 9 UUID (16 bytes).
 */

/** A header value: boolean, number (int8/16/32), bigint (int64), string, bytes, Date (timestamp) or UUID string. */
export type EventStreamHeaderValue = boolean | number | bigint | string | Uint8Array | Date;

/** One decoded message: its headers by name and its payload bytes. */
export interface EventStreamMessage {
  headers: Record<string, EventStreamHeaderValue>;
  payload: Uint8Array;
}

/** Options of {@link EventStreamDecoder}. */
export interface EventStreamDecoderOptions {
  /** The URL the stream came from, for error messages. */
  url: string;
  /** The largest message accepted (its total length); a larger one fails with `ResponseTooLargeError`. */
  maxMessageBytes?: number | undefined;
}

/** The prelude (12 bytes) and the message CRC (4 bytes): the smallest message is 16 bytes. */
const PRELUDE_BYTES = 12;
const MIN_MESSAGE_BYTES = 16;
/** The framing's own bound on one message (16 MiB, as the AWS event-stream libraries define it). */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;

const utf8 = new TextDecoder("utf-8", { fatal: true });

const hex = (n: number): string => `0x${n.toString(16).padStart(8, "0")}`;

/**
 * Decodes AWS event-stream messages from bytes that arrive in chunks split anywhere (inside the prelude, a
 * header or a CRC). Both CRCs are checked: the prelude's as soon as its 12 bytes are in (so a corrupted
 * length fails at once instead of waiting for bytes that never come), the message's when it is complete.
 * Throws {@link StreamInterruptedError} (retryable: the stream arrived damaged) for a CRC mismatch, an
 * impossible length or a malformed header, and {@link ResponseTooLargeError} for a message over
 * `maxMessageBytes`. After a throw the decoder is unusable.
 */
export class EventStreamDecoder {
  private readonly url: string;
  private readonly maxMessageBytes: number;
  /** Received bytes not yet decoded, in order. */
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  /** The total length of the message being received, once its prelude was checked. */
  private expected: number | undefined;

  constructor({ url, maxMessageBytes }: EventStreamDecoderOptions) {
    this.url = url;
    this.maxMessageBytes = Math.min(maxMessageBytes ?? MAX_FRAME_BYTES, MAX_FRAME_BYTES);
  }

  /** Bytes received that do not yet form a complete message (non-zero at the end of a body: it was cut). */
  get pendingBytes(): number {
    return this.buffered;
  }

  /**
   * Adds received bytes and yields the messages they complete, in order, one at a time: the messages before a
   * damaged one are delivered before its error is thrown. Read the generator to its end before the next push.
   */
  *push(chunk: Uint8Array): Generator<EventStreamMessage, void, undefined> {
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    for (;;) {
      if (this.expected === undefined) {
        if (this.buffered < PRELUDE_BYTES) return;
        this.expected = this.checkPrelude(this.peek(PRELUDE_BYTES));
      }
      if (this.buffered < this.expected) return;
      const bytes = this.take(this.expected);
      this.expected = undefined;
      yield this.decodeMessage(bytes);
    }
  }

  /** Checks a prelude and returns the message's total length. */
  private checkPrelude(prelude: Uint8Array): number {
    const view = new DataView(prelude.buffer, prelude.byteOffset, PRELUDE_BYTES);
    const total = view.getUint32(0);
    const headersLength = view.getUint32(4);
    const computed = crc32(prelude, 0, 8);
    const sent = view.getUint32(8);
    if (computed !== sent) {
      throw this.malformed(`prelude CRC mismatch (computed ${hex(computed)}, the frame says ${hex(sent)})`);
    }
    if (total < MIN_MESSAGE_BYTES || headersLength > total - MIN_MESSAGE_BYTES) {
      throw this.malformed(`impossible lengths (total ${total}, headers ${headersLength})`);
    }
    if (total > this.maxMessageBytes) {
      throw new ResponseTooLargeError({
        limit: "limits.maxSseEventBytes",
        maximum: this.maxMessageBytes,
        received: total,
        what: "one event-stream message",
        url: this.url,
      });
    }
    return total;
  }

  /** The first `n` buffered bytes, without consuming them. */
  private peek(n: number): Uint8Array {
    const first = this.chunks[0] as Uint8Array;
    if (first.length >= n) return first.subarray(0, n);
    const out = new Uint8Array(n);
    let at = 0;
    for (const chunk of this.chunks) {
      const part = chunk.subarray(0, n - at);
      out.set(part, at);
      at += part.length;
      if (at === n) break;
    }
    return out;
  }

  /** Removes and returns the first `n` buffered bytes (copied only when they span chunks). */
  private take(n: number): Uint8Array {
    const first = this.chunks[0] as Uint8Array;
    this.buffered -= n;
    if (first.length >= n) {
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
      return first.subarray(0, n);
    }
    const out = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      const chunk = this.chunks[0] as Uint8Array;
      const part = chunk.subarray(0, n - at);
      out.set(part, at);
      at += part.length;
      if (part.length === chunk.length) this.chunks.shift();
      else this.chunks[0] = chunk.subarray(part.length);
    }
    return out;
  }

  private decodeMessage(bytes: Uint8Array): EventStreamMessage {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const end = bytes.length - 4;
    const computed = crc32(bytes, 0, end);
    const sent = view.getUint32(end);
    if (computed !== sent) {
      throw this.malformed(`message CRC mismatch (computed ${hex(computed)}, the frame says ${hex(sent)})`);
    }
    const headersEnd = PRELUDE_BYTES + view.getUint32(4);
    return {
      headers: this.decodeHeaders(bytes, view, headersEnd),
      payload: bytes.subarray(headersEnd, end),
    };
  }

  private decodeHeaders(
    bytes: Uint8Array,
    view: DataView,
    end: number,
  ): Record<string, EventStreamHeaderValue> {
    const headers: Record<string, EventStreamHeaderValue> = {};
    let at = PRELUDE_BYTES;
    const need = (n: number): void => {
      if (at + n > end) throw this.malformed("a header runs past the headers section");
    };
    while (at < end) {
      need(1);
      const nameLength = view.getUint8(at);
      at += 1;
      need(nameLength + 1);
      const name = this.text(bytes.subarray(at, at + nameLength));
      at += nameLength;
      const type = view.getUint8(at);
      at += 1;
      const read = readHeaderValue({ bytes, view, at, type });
      if (read === undefined) throw this.malformed(`header "${name}" has an unknown value type ${type}`);
      need(read.size);
      let value: EventStreamHeaderValue;
      try {
        value = read.value();
      } catch (error) {
        throw this.malformed(`header "${name}" has an unreadable value`, error);
      }
      Object.defineProperty(headers, name, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      at += read.size;
    }
    return headers;
  }

  private text(bytes: Uint8Array): string {
    try {
      return utf8.decode(bytes);
    } catch (error) {
      throw this.malformed("a header is not UTF-8", error);
    }
  }

  private malformed(reason: string, cause?: unknown): StreamInterruptedError {
    return new StreamInterruptedError({
      message: `Model stream from ${this.url} sent a malformed event-stream frame: ${reason}`,
      url: this.url,
      cause,
    });
  }
}

/** How many bytes a header value takes (past its type byte) and how to read it; undefined: unknown type. */
function readHeaderValue({
  bytes,
  view,
  at,
  type,
}: {
  bytes: Uint8Array;
  view: DataView;
  at: number;
  type: number;
}): { size: number; value: () => EventStreamHeaderValue } | undefined {
  const lengthPrefixed = (): number => (at + 2 <= view.byteLength ? view.getUint16(at) : 0);
  switch (type) {
    case 0:
      return { size: 0, value: () => true };
    case 1:
      return { size: 0, value: () => false };
    case 2:
      return { size: 1, value: () => view.getInt8(at) };
    case 3:
      return { size: 2, value: () => view.getInt16(at) };
    case 4:
      return { size: 4, value: () => view.getInt32(at) };
    case 5:
      return { size: 8, value: () => view.getBigInt64(at) };
    case 6:
      return {
        size: 2 + lengthPrefixed(),
        value: () => new Uint8Array(bytes.subarray(at + 2, at + 2 + lengthPrefixed())),
      };
    case 7:
      return {
        size: 2 + lengthPrefixed(),
        value: () => utf8.decode(bytes.subarray(at + 2, at + 2 + lengthPrefixed())),
      };
    case 8:
      return { size: 8, value: () => new Date(Number(view.getBigInt64(at))) };
    case 9:
      return { size: 16, value: () => uuid(bytes.subarray(at, at + 16)) };
    default:
      return undefined;
  }
}

function uuid(bytes: Uint8Array): string {
  const h = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
