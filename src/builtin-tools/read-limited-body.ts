/** A response body read up to a byte limit by {@link readLimitedBody}. */
export interface LimitedBody {
  /** The bytes read: at most the limit. */
  bytes: Uint8Array;
  /** True when the body was longer than the limit (the rest was not read; the stream was cancelled). */
  truncated: boolean;
}

/**
 * Reads `body` until it ends or `maxBytes` bytes have been read, then cancels the stream (which closes the
 * connection of a `fetch` response). Holds at most `maxBytes` plus one chunk in memory. A `null` body is
 * empty. Rejects with what the stream rejects with (an aborted request's reason).
 */
export async function readLimitedBody({
  body,
  maxBytes,
}: {
  body: ReadableStream<Uint8Array> | null;
  maxBytes: number;
}): Promise<LimitedBody> {
  if (body === null) return { bytes: new Uint8Array(0), truncated: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (total + value.length > maxBytes) {
        chunks.push(value.subarray(0, maxBytes - total));
        total = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(value);
      total += value.length;
    }
  } finally {
    if (truncated) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { bytes, truncated };
}
