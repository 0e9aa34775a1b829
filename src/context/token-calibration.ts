/** The calibration factor stays within these bounds, whatever the provider reports. */
export const CALIBRATION_LIMITS = { min: 0.25, max: 8 } as const;

/**
 * How fast the factor follows the provider's counts. An underestimate (the provider counted more than
 * estimated) is learned at once; an overestimate only by a fifth per observation, so one small request (where
 * fixed template tokens weigh less) does not undo what a larger one taught.
 */
export const CALIBRATION_SMOOTHING = { up: 1, down: 0.2 } as const;

/**
 * Headroom kept when deciding to compact: a request is compacted when its calibrated estimate × (1 + margin)
 * exceeds `compactAt × maxContextTokens`, and compacted down to `targetRatio × compactAt × maxContextTokens / (1 + margin)`.
 * It absorbs the variation of the provider's count around the learned factor (2.7–3.8× on llama.cpp for the
 * same estimator).
 */
export const COMPACTION_MARGIN = 0.1;

/** Options of {@link TokenCalibration.observe}. */
export interface ObserveOptions {
  /** The estimate of the request, made with {@link TokenCalibration.factor} as it was then. */
  estimated: number;
  /** The input tokens the provider reported for that request. */
  actual: number;
  /** The factor the estimate was made with. Default: the current factor. */
  factor?: number | undefined;
}

/** A saved calibration (see {@link CalibrationRegistry.toJSON}). */
export interface CalibrationSnapshot {
  factor: number;
  observations: number;
}

/**
 * The correction of one model's token estimates: the ratio between what the provider reports as input tokens
 * and what the counter estimated, learned from each call's usage (within {@link CALIBRATION_LIMITS}, smoothed by
 * {@link CALIBRATION_SMOOTHING}). Shared by every run of a model through a {@link CalibrationRegistry}.
 */
export class TokenCalibration {
  private value = 1;
  private count = 0;

  constructor(snapshot?: CalibrationSnapshot) {
    if (snapshot !== undefined && Number.isFinite(snapshot.factor) && snapshot.factor > 0) {
      this.value = clamp(snapshot.factor);
      this.count =
        Number.isInteger(snapshot.observations) && snapshot.observations > 0 ? snapshot.observations : 1;
    }
  }

  /** The factor estimates are multiplied by (1 until the first observation). */
  get factor(): number {
    return this.value;
  }

  /** How many usable observations taught the factor. */
  get observations(): number {
    return this.count;
  }

  /**
   * Learns from one request: the ratio that would have made the estimate exact. Ignores non-positive or
   * non-finite values.
   */
  observe({ estimated, actual, factor = this.value }: ObserveOptions): void {
    if (!(estimated > 0 && actual > 0 && factor > 0)) return;
    if (!(Number.isFinite(estimated) && Number.isFinite(actual) && Number.isFinite(factor))) return;
    const target = clamp(factor * (actual / estimated));
    const weight =
      this.count === 0 || target > this.value ? CALIBRATION_SMOOTHING.up : CALIBRATION_SMOOTHING.down;
    this.value = clamp(this.value + weight * (target - this.value));
    this.count++;
  }

  /** The state to save (JSON). */
  toJSON(): CalibrationSnapshot {
    return { factor: this.value, observations: this.count };
  }
}

function clamp(value: number): number {
  return Math.min(CALIBRATION_LIMITS.max, Math.max(CALIBRATION_LIMITS.min, value));
}

/** Identifies what a calibration corrects: one model, counted with one tokenizer. */
export interface CalibrationKey {
  /** The model's provider (`model.provider`). */
  provider: string;
  modelId: string;
  /** The counter's encoding (`TokenCounter.encoding`): a correction is only valid for the counter it corrects. */
  encoding: string;
}

/**
 * The learned token corrections, one per model and counter, kept across runs. Every Agent with a `context`
 * option has one (so its sessions and later runs start calibrated); pass one registry as `context.calibration`
 * to share it between agents, and save it with `toJSON()` / restore it with `new CalibrationRegistry(saved)` to
 * keep it across processes.
 */
export class CalibrationRegistry {
  private readonly entries = new Map<string, TokenCalibration>();

  constructor(saved?: { readonly [key: string]: CalibrationSnapshot }) {
    if (saved === undefined) return;
    for (const [key, snapshot] of Object.entries(saved)) {
      if (typeof snapshot === "object" && snapshot !== null)
        this.entries.set(key, new TokenCalibration(snapshot));
    }
  }

  /** The calibration of a model and counter (created, at factor 1, on first use). */
  for(key: CalibrationKey): TokenCalibration {
    const id = `${key.provider}:${key.modelId}#${key.encoding}`;
    let calibration = this.entries.get(id);
    if (calibration === undefined) {
      calibration = new TokenCalibration();
      this.entries.set(id, calibration);
    }
    return calibration;
  }

  /** Every calibration by key (`provider:modelId#encoding`), for saving. */
  toJSON(): { [key: string]: CalibrationSnapshot } {
    const out: { [key: string]: CalibrationSnapshot } = {};
    for (const [key, calibration] of this.entries) out[key] = calibration.toJSON();
    return out;
  }
}
