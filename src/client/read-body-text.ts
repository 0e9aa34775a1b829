import { RunStreamError } from "../errors/run-stream-error.js";

/** Options of {@link readBodyText}. */
export interface ReadBodyTextOptions {
  /** The most ms without a byte (the server sends a ping every 15 s while idle) before the read fails. */
  idleTimeoutMs: number;
  /** The URL, for the error message. */
  url: string;
}

/**
 * A response body as text chunks (UTF-8, split characters kept whole), failing with a `timeout`
 * {@link RunStreamError} when no byte comes for `idleTimeoutMs`. Leaving the iteration cancels the body.
 */
export async function* readBodyText(
  body: ReadableStream<Uint8Array>,
  { idleTimeoutMs, url }: ReadBodyTextOptions,
): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    while (true) {
      const { done, value } = await readWithin(reader, idleTimeoutMs, url);
      if (done) {
        const tail = decoder.decode();
        if (tail !== "") yield tail;
        return;
      }
      yield decoder.decode(value, { stream: true });
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  timeoutMs: number,
  url: string,
): ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      const message = `${url} sent nothing for ${timeoutMs} ms`;
      reject(new RunStreamError({ kind: "timeout", message, url }));
    }, timeoutMs);
    reader.read().then(
      (result) => {
        clearTimeout(timer);
        resolve(result);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
