import type { Message } from "../models/message.js";
import { TOKEN_OVERHEAD, type TokenCounter } from "./token-counter.js";

/** The calibration factor stays within these bounds, whatever the provider reports. */
export const CALIBRATION_LIMITS = { min: 0.5, max: 2 } as const;

/** Weight of the newest observation in the smoothed calibration factor. */
const SMOOTHING = 0.5;

/** Options of {@link ContextTracker}. */
export interface ContextTrackerOptions {
  counter: TokenCounter;
}

/** Options of {@link ContextTracker.calibrate}. */
export interface CalibrateOptions {
  /** What {@link ContextTracker.measure} estimated for the request (plus anything the caller added). */
  estimated: number;
  /** The input tokens the provider reported for that request. */
  actual: number;
}

/**
 * Follows the token size of one growing history (the loop's `messages` array) incrementally: each
 * {@link measure} counts only the messages appended since the previous call, so a turn costs O(new messages)
 * whatever the history's length. A replaced or shrunk array, or a changed message at the last counted
 * position, is detected and recounted once; after editing the array in place elsewhere, call {@link reset}.
 *
 * {@link calibrate} learns from the provider's reported input tokens and scales later estimates.
 */
export class ContextTracker {
  private readonly counter: TokenCounter;
  private messages: readonly Message[] | undefined;
  private counted = 0;
  private lastCounted: Message | undefined;
  private total = 0;
  private scale = 1;

  constructor({ counter }: ContextTrackerOptions) {
    this.counter = counter;
  }

  /** The current calibration factor (1 until {@link calibrate} is called; within {@link CALIBRATION_LIMITS}). */
  get factor(): number {
    return this.scale;
  }

  /**
   * The estimated input tokens of a request with `messages` (including the reply priming), scaled by the
   * calibration factor and rounded up.
   */
  measure(messages: readonly Message[]): number {
    if (
      messages !== this.messages ||
      messages.length < this.counted ||
      (this.counted > 0 && messages[this.counted - 1] !== this.lastCounted)
    ) {
      this.messages = messages;
      this.counted = 0;
      this.total = 0;
    }
    const length = messages.length;
    for (let i = this.counted; i < length; i++) this.total += this.counter.countMessage(messages[i]!);
    this.counted = length;
    this.lastCounted = length > 0 ? messages[length - 1] : undefined;
    return Math.ceil((this.total + TOKEN_OVERHEAD.replyPriming) * this.scale);
  }

  /**
   * Records the provider's `actual` input tokens for a request estimated at `estimated` (a value that already
   * includes the current factor) and moves the factor halfway towards the ratio that would have been exact,
   * clamped to {@link CALIBRATION_LIMITS}. Ignores non-positive or non-finite values.
   */
  calibrate({ estimated, actual }: CalibrateOptions): void {
    if (!(estimated > 0 && actual > 0 && Number.isFinite(estimated) && Number.isFinite(actual))) return;
    const target = this.scale * (actual / estimated);
    const next = this.scale + SMOOTHING * (target - this.scale);
    this.scale = Math.min(CALIBRATION_LIMITS.max, Math.max(CALIBRATION_LIMITS.min, next));
  }

  /** Forgets the counted messages (the next {@link measure} recounts). Keeps the calibration factor. */
  reset(): void {
    this.messages = undefined;
    this.counted = 0;
    this.lastCounted = undefined;
    this.total = 0;
  }
}
