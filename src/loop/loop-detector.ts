import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { canonicalJson } from "../util/canonical-json.js";

/** Loop detection settings. */
export interface LoopDetectionOptions {
  /** How many recent calls are looked at. Default 4. */
  window: number;
  /** How many repeats make a loop. Default 3. */
  threshold: number;
}

/** Default loop detection: the same call 3 times within the last 4, or a 2-call cycle repeated 3 times. */
export const DEFAULT_LOOP_DETECTION: Readonly<LoopDetectionOptions> = Object.freeze({
  window: 4,
  threshold: 3,
});

/**
 * Watches the sequence of tool calls of a run. `add` returns a description when the newest call closes a
 * loop: the same call `threshold` times within the last `window` calls, or a cycle of 2 or 3 calls repeated
 * `threshold` times back to back (A,B,A,B,A,B). Memory is bounded.
 */
export class LoopDetector {
  private readonly signatures: string[] = [];
  private readonly keep: number;

  constructor(private readonly options: LoopDetectionOptions = DEFAULT_LOOP_DETECTION) {
    for (const key of ["window", "threshold"] as const) {
      const value = options[key];
      if (!Number.isInteger(value) || value < (key === "threshold" ? 2 : 1)) {
        throw new InvalidArgumentError({ argument: `loopDetection.${key}`, message: `got ${String(value)}` });
      }
    }
    this.keep = Math.max(options.window, 3 * options.threshold);
  }

  /** The signature of a call: its name and canonical arguments. */
  static signature(name: string, args: unknown): string {
    return `${name}:${canonicalJson(args)}`;
  }

  /** Records a call; returns a reason when it closes a loop, else undefined. */
  add(name: string, args: unknown): string | undefined {
    return this.push(name, LoopDetector.signature(name, args));
  }

  /**
   * Records the calls of one model response; returns a reason when they close a loop, else undefined.
   * Identical calls within one response (three dice rolls) count once: a loop is the model repeating itself
   * across turns, not one response asking for the same thing several times.
   */
  addResponse(calls: ReadonlyArray<{ name: string; args: unknown }>): string | undefined {
    const seen = new Set<string>();
    let reason: string | undefined;
    for (const { name, args } of calls) {
      const signature = LoopDetector.signature(name, args);
      if (seen.has(signature)) continue;
      seen.add(signature);
      reason ??= this.push(name, signature);
    }
    return reason;
  }

  private push(name: string, signature: string): string | undefined {
    this.signatures.push(signature);
    if (this.signatures.length > this.keep * 2) this.signatures.splice(0, this.signatures.length - this.keep);
    const { window, threshold } = this.options;
    const n = this.signatures.length;
    let same = 0;
    for (let i = Math.max(0, n - window); i < n; i++) if (this.signatures[i] === signature) same++;
    if (same >= threshold) {
      return `The call ${name} with the same arguments was made ${same} times within the last ${Math.min(window, n)} calls`;
    }
    for (let period = 2; period <= 3; period++) {
      const span = period * threshold;
      if (n < span) break;
      let cycle = true;
      for (let i = n - span; i < n - period && cycle; i++)
        cycle = this.signatures[i] === this.signatures[i + period];
      const distinct = new Set(this.signatures.slice(n - period)).size;
      if (cycle && distinct === period) {
        return `The last ${span} calls repeat a cycle of ${period} calls ${threshold} times`;
      }
    }
    return undefined;
  }
}
