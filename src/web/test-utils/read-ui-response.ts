import {
  parseJsonEventStream,
  readUIMessageStream,
  type UIMessage,
  type UIMessageChunk,
  uiMessageChunkSchema,
} from "ai";

/** What the AI SDK's own reader made of a response: the message after each chunk, the chunks, the errors. */
export interface ReadUIResponse {
  message: UIMessage | undefined;
  snapshots: UIMessage[];
  chunks: UIMessageChunk[];
  errors: Error[];
  /** The raw SSE text. */
  text: string;
}

/**
 * Reads a UI message stream response with the `ai` package (its SSE parser validating each chunk against
 * `uiMessageChunkSchema`, then `readUIMessageStream`), as `useChat` does. `message`: the assistant message
 * the stream continues (after approvals).
 */
export async function readUIResponse(response: Response, message?: UIMessage): Promise<ReadUIResponse> {
  if (response.body === null) throw new Error("no body");
  const [forText, forChunks] = response.body.tee();
  const textPromise = new Response(forText).text();
  const chunks: UIMessageChunk[] = [];
  const errors: Error[] = [];
  const stream = parseJsonEventStream({ stream: forChunks, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream({
      transform(parsed, controller) {
        if (!parsed.success) throw parsed.error;
        chunks.push(parsed.value as UIMessageChunk);
        controller.enqueue(parsed.value as UIMessageChunk);
      },
    }),
  );
  const snapshots: UIMessage[] = [];
  for await (const snapshot of readUIMessageStream({
    stream,
    message,
    onError: (error) => errors.push(error as Error),
  })) {
    snapshots.push(snapshot);
  }
  return { message: snapshots.at(-1), snapshots, chunks, errors, text: await textPromise };
}
