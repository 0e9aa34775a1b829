import type { Message } from "../models/message.js";
import { CALIBRATION_LIMITS, TokenCalibration } from "./token-calibration.js";
import { TOKEN_OVERHEAD, type TokenCounter } from "./token-counter.js";

export { CALIBRATION_LIMITS };

/** Options of {@link ContextTracker}. */
export interface ContextTrackerOptions {
  counter: TokenCounter;
  /**
   * The model's correction, shared with its other runs (from a {@link CalibrationRegistry}). Default: a new one
   * for this tracker alone.
   */
  calibration?: TokenCalibration | undefined;
}

/** Options of {@link ContextTracker.calibrate}. */
export interface CalibrateOptions {
  /** What {@link ContextTracker.measure} estimated for the request (plus anything the caller added). */
  estimated: number;
  /** The input tokens the provider reported for that request. */
  actual: number;
  /** The factor `estimated` was made with (default: the current one; differs when runs share a calibration). */
  factor?: number | undefined;
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
  private readonly calibration: TokenCalibration;

  constructor({ counter, calibration }: ContextTrackerOptions) {
    this.counter = counter;
    this.calibration = calibration ?? new TokenCalibration();
  }

  /** The current calibration factor (1 until {@link calibrate} is called; within {@link CALIBRATION_LIMITS}). */
  get factor(): number {
    return this.calibration.factor;
  }

  /** True once the factor was learned from at least one reported usage (in this run or an earlier one). */
  get calibrated(): boolean {
    return this.calibration.observations > 0;
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
    return Math.ceil((this.total + TOKEN_OVERHEAD.replyPriming) * this.calibration.factor);
  }

  /**
   * Records the provider's `actual` input tokens for a request estimated at `estimated` (a value that already
   * includes the current factor) and moves the factor towards the ratio that would have been exact: at once
   * when the provider counted more, by a fifth when it counted less (see {@link TokenCalibration.observe}),
   * within {@link CALIBRATION_LIMITS}. Ignores non-positive or non-finite values.
   */
  calibrate({ estimated, actual, factor }: CalibrateOptions): void {
    this.calibration.observe({ estimated, actual, factor });
  }

  /** Forgets the counted messages (the next {@link measure} recounts). Keeps the calibration factor. */
  reset(): void {
    this.messages = undefined;
    this.counted = 0;
    this.lastCounted = undefined;
    this.total = 0;
  }
}
