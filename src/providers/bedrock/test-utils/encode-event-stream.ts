import { crc32 } from "../crc32.js";

/**
 * Encodes one AWS event-stream message with string headers (type 7), as Bedrock frames its events: total
 * length, headers length, prelude CRC, headers, payload, message CRC. For test servers and fault frames.
 */
export function encodeEventStreamMessage({
  headers,
  payload,
}: {
  headers: Record<string, string>;
  payload: Uint8Array | string;
}): Uint8Array {
  const headerBytes = Buffer.concat(
    Object.entries(headers).map(([name, value]) => {
      const nameBytes = Buffer.from(name);
      const valueBytes = Buffer.from(value);
      const out = Buffer.alloc(1 + nameBytes.length + 1 + 2 + valueBytes.length);
      out.writeUInt8(nameBytes.length, 0);
      nameBytes.copy(out, 1);
      out.writeUInt8(7, 1 + nameBytes.length);
      out.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
      valueBytes.copy(out, 4 + nameBytes.length);
      return out;
    }),
  );
  const body = typeof payload === "string" ? Buffer.from(payload) : Buffer.from(payload);
  const total = 12 + headerBytes.length + body.length + 4;
  const message = Buffer.alloc(total);
  message.writeUInt32BE(total, 0);
  message.writeUInt32BE(headerBytes.length, 4);
  message.writeUInt32BE(crc32(message, 0, 8), 8);
  headerBytes.copy(message, 12);
  body.copy(message, 12 + headerBytes.length);
  message.writeUInt32BE(crc32(message, 0, total - 4), total - 4);
  return new Uint8Array(message);
}

/** A Bedrock event frame: `:event-type`, `:content-type: application/json`, `:message-type: event`. */
export function bedrockEventFrame(eventType: string, payload: unknown): Uint8Array {
  return encodeEventStreamMessage({
    headers: { ":event-type": eventType, ":content-type": "application/json", ":message-type": "event" },
    payload: JSON.stringify(payload),
  });
}

/** A Bedrock exception frame: `:exception-type`, `:message-type: exception`, payload `{"message": …}`. */
export function bedrockExceptionFrame(exceptionType: string, message: string): Uint8Array {
  return encodeEventStreamMessage({
    headers: {
      ":exception-type": exceptionType,
      ":content-type": "application/json",
      ":message-type": "exception",
    },
    payload: JSON.stringify({ message }),
  });
}
