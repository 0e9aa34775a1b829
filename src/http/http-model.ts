import type { Model, ModelCallOptions, ModelRequest, ModelResponse } from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { openModelStream, type SendModelRequestOptions, sendModelRequest } from "./send-model-request.js";

/**
 * The shared half of every HTTP provider model: `generate` (one request with retries, then the provider's
 * parser) and `stream` (open with retries, the provider's stream reader, the connection always released).
 * A provider supplies what differs: the request (URL, headers, body, error mapping), the response parser and the
 * stream reader.
 */
export abstract class HttpModel implements Model {
  abstract readonly provider: string;
  abstract readonly modelId: string;

  /** The request of one call: URL, headers, serialised body, retry policy, timeout and error mapping. */
  protected abstract requestOptions(args: {
    request: ModelRequest;
    options: ModelCallOptions;
    stream: boolean;
  }): SendModelRequestOptions;

  /** Parses a 2xx non-streaming body. */
  protected abstract parseResponse(text: string): ModelResponse;

  /** Turns a streaming body (text chunks) into stream parts. */
  protected abstract readStream(body: AsyncIterable<string>): AsyncIterable<ModelStreamPart>;

  /** Sends one non-streaming request (retrying transient failures) and returns the parsed answer. Never throws synchronously. */
  async generate(request: ModelRequest, options: ModelCallOptions = {}): Promise<ModelResponse> {
    return sendModelRequest({
      ...this.requestOptions({ request, options, stream: false }),
      read: async (response) => this.parseResponse(await response.text()),
    });
  }

  /**
   * Streams one request. The request is sent when iteration starts; failures before the response headers are
   * retried, later ones throw. Stopping the iteration early releases the connection.
   */
  async *stream(
    request: ModelRequest,
    options: ModelCallOptions = {},
  ): AsyncGenerator<ModelStreamPart, void, undefined> {
    const open = await openModelStream(this.requestOptions({ request, options, stream: true }));
    try {
      yield* this.readStream(open.body);
    } finally {
      open.dispose();
    }
  }
}
