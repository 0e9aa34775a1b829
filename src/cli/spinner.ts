import type { CliWritable } from "./cli-io.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Options of {@link Spinner}. */
export interface SpinnerOptions {
  /** Where to draw (stderr). */
  stream: CliWritable;
  /** Draw at all (only on a terminal). When false every method does nothing. */
  enabled: boolean;
  /** Milliseconds between frames. Default 80. */
  intervalMs?: number;
}

/** Nothing is drawn during the first this many ms of a wait (so quick steps do not flicker). */
const QUIET_MS = 150;

/**
 * A one-line progress indicator (`⠋ waiting for openai:gpt-4o-mini… 2.1 s`) redrawn in place on a terminal
 * once a wait lasts longer than 150 ms. `stop` erases it, so other output can be written; the timer never
 * keeps the process alive.
 */
export class Spinner {
  private readonly stream: CliWritable;
  private readonly enabled: boolean;
  private readonly intervalMs: number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private label = "";
  private frame = 0;
  private since = 0;
  private drawn = false;

  constructor({ stream, enabled, intervalMs = 80 }: SpinnerOptions) {
    this.stream = stream;
    this.enabled = enabled;
    this.intervalMs = intervalMs;
  }

  /** Shows `label` (replacing the current one); the elapsed time restarts. */
  start(label: string): void {
    if (!this.enabled) return;
    this.label = label;
    this.since = Date.now();
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.draw(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Erases the line and stops. */
  stop(): void {
    if (this.timer === undefined) return;
    clearInterval(this.timer);
    this.timer = undefined;
    if (this.drawn) this.stream.write("\r\u001b[K");
    this.drawn = false;
  }

  private draw(): void {
    if (Date.now() - this.since < QUIET_MS) return;
    this.drawn = true;
    const seconds = ((Date.now() - this.since) / 1000).toFixed(1);
    const frame = FRAMES[this.frame++ % FRAMES.length] ?? "-";
    this.stream.write(`\r\u001b[K${frame} ${this.label} ${seconds} s`);
  }
}
