import { errorMarker, hasMarker } from "./agentloop-error.js";
import { ModelCallError } from "./model-call-error.js";

const MARK_UNSUPPORTEDCONTENTERROR = errorMarker("UnsupportedContentError");

/** Options of {@link UnsupportedContentError}. */
export interface UnsupportedContentErrorOptions {
  /** The API that cannot take the part: `openai_chat`, `openai_responses` or `anthropic`. */
  provider: string;
  /** The part's type: `image` or `file`. */
  partType: string;
  /** The part's media type, when it has one (an image by URL may have none). */
  mediaType?: string | undefined;
  /** Why the part cannot be sent, and what to do instead. */
  reason: string;
}

/**
 * A message holds a content part the provider's API cannot take: an image of a media type it does not read
 * (only PNG, JPEG, GIF and WebP are), a file that is not a PDF where only PDFs are read, a file by URL where
 * only inline files are. Thrown while the request is built, before anything is sent, so no request is made.
 * Never retryable: the same history fails the same way. Through `agent.run` the run ends with stop reason
 * `error` and this error as `result.error`. See docs/content.md for what each provider takes.
 */
export class UnsupportedContentError extends ModelCallError {
  protected readonly [MARK_UNSUPPORTEDCONTENTERROR] = true;
  /** The API that cannot take the part: `openai_chat`, `openai_responses` or `anthropic`. */
  readonly provider: string;
  /** The part's type: `image` or `file`. */
  readonly partType: string;
  /** The part's media type, when it has one. */
  readonly mediaType: string | undefined;
  /** Why the part cannot be sent, and what to do instead. */
  readonly reason: string;

  constructor({ provider, partType, mediaType, reason }: UnsupportedContentErrorOptions) {
    const type = mediaType === undefined ? "" : ` (${mediaType})`;
    super({
      message: `${provider} cannot take this ${partType} part${type}: ${reason}`,
      isRetryable: false,
      code: "unsupported_content",
    });
    this.name = "UnsupportedContentError";
    this.provider = provider;
    this.partType = partType;
    this.mediaType = mediaType;
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is UnsupportedContentError {
    return hasMarker(error, MARK_UNSUPPORTEDCONTENTERROR);
  }
}
