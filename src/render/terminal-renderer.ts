import { shouldUseColor } from "./ansi-style.js";
import { Renderer } from "./renderer.js";

/** A stream a renderer writes to (`process.stdout`, a file stream, a test double). */
export interface RenderStream {
  write(text: string): unknown;
  /** Read to decide on colour. */
  isTTY?: boolean;
}

/** Options of {@link createTerminalRenderer}. */
export interface TerminalRendererOptions {
  /** Where to write. Default `process.stdout`. */
  stream?: RenderStream;
  /**
   * Colour the output. Default: when `stream` is a terminal, unless `NO_COLOR` is set (`FORCE_COLOR` forces
   * it on); see {@link shouldUseColor}.
   */
  color?: boolean;
  /** Tool results are cut to this many characters. Default 300. */
  maxResultChars?: number;
  /** The environment read for `NO_COLOR` / `FORCE_COLOR` / `TERM`. Default `process.env`. */
  env?: Record<string, string | undefined>;
}

/**
 * A {@link Renderer} for people at a terminal: the task, each model call (latency, tokens, cost), tool calls
 * with their arguments and (truncated) results, soft limits, retries, compaction, approval requests, errors,
 * the answer (streamed text inline as it arrives) and the run's totals (turns, tokens, cost, time).
 *
 * @example
 * const renderer = createTerminalRenderer();
 * await agent.run("What is 2 + 2?"); // with `onEvent: (e) => renderer.handle(e)` in the agent's options
 */
export function createTerminalRenderer(options: TerminalRendererOptions = {}): Renderer {
  const stream = options.stream ?? process.stdout;
  const color = options.color ?? shouldUseColor({ stream, env: options.env ?? process.env });
  return new Renderer({
    color,
    write: (text) => {
      stream.write(text);
    },
    ...(options.maxResultChars !== undefined && { maxResultChars: options.maxResultChars }),
  });
}
