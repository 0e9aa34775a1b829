import { ResponseTooLargeError } from "../errors/response-too-large-error.js";
import type { Model, ModelCallOptions, ModelRequest, ModelResponse } from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { displayUrl } from "./display-url.js";
import type { HttpResponse } from "./http-client.js";
import { DEFAULT_RESPONSE_LIMITS } from "./response-limits.js";
import { openModelStream, type SendModelRequestOptions, sendModelRequest } from "./send-model-request.js";

/** The request options with the call's `maxRetries` (when given) in place of the provider's. */
function withRetryOverride(
  send: SendModelRequestOptions,
  options: ModelCallOptions,
): SendModelRequestOptions {
  const { maxRetries } = options;
  if (maxRetries === undefined || maxRetries === send.retry.maxRetries) return send;
  // `send` is this call's own object (see requestOptions): set, not copied (a spread copy of a many-keyed
  // object gets a hidden class of its own in V8, on every request).
  send.retry = { ...send.retry, maxRetries };
  return send;
}

/**
 * The shared half of every HTTP provider model: `generate` (one request with retries, then the provider's
 * parser) and `stream` (open with retries, the provider's stream reader, the connection always released).
 * A provider supplies what differs: the request (URL, headers, body, error mapping), the response parser and the
 * stream reader.
 */
export abstract class HttpModel implements Model {
  abstract readonly provider: string;
  abstract readonly modelId: string;

  /**
   * The request of one call: URL, headers, serialised body, retry policy, timeout and error mapping. A new object
   * per call: the model sets the call's retry override on it.
   */
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
    const send = withRetryOverride(this.requestOptions({ request, options, stream: false }), options);
    const { maxToolCalls } = send.limits ?? DEFAULT_RESPONSE_LIMITS;
    const read = async (response: HttpResponse): Promise<ModelResponse> => {
      const parsed = this.parseResponse(await response.text());
      if (parsed.toolCalls.length > maxToolCalls) {
        throw new ResponseTooLargeError({
          limit: "limits.maxToolCalls",
          maximum: maxToolCalls,
          received: parsed.toolCalls.length,
          what: "the number of tool calls",
          url: displayUrl(send.url),
        });
      }
      return parsed;
    };
    return sendModelRequest(Object.assign(send, { read })); // this call's own object: no copy
  }

  /**
   * Streams one request. The request is sent when iteration starts; failures before the response headers are
   * retried, later ones throw (credentials removed). Each part is progress for the idle timeout. Stopping the
   * iteration early releases the connection.
   */
  async *stream(
    request: ModelRequest,
    options: ModelCallOptions = {},
  ): AsyncGenerator<ModelStreamPart, void, undefined> {
    const open = await openModelStream(
      withRetryOverride(this.requestOptions({ request, options, stream: true }), options),
    );
    try {
      for await (const part of this.readStream(open.body)) {
        open.progress();
        yield part;
      }
    } catch (error) {
      throw open.fail(error);
    } finally {
      open.dispose();
    }
  }
}
