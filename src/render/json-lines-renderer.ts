import type { Redactor } from "../stores/redactor.js";
import { Renderer } from "./renderer.js";
import type { RenderStream } from "./terminal-renderer.js";

/** Options of {@link createJsonLinesRenderer}. */
export interface JsonLinesRendererOptions {
  /** Where to write. Default `process.stdout`. */
  stream?: RenderStream;
  /** Redacts every event before it is written. Default: the default redactor (`createRedactor()`); `false`: none. */
  redactor?: Redactor | false;
}

/**
 * A {@link Renderer} for programs: each event as one JSON object (`{ type, turn, timestamp, data }`) on its own
 * line, in order; a run's last line is its `loop_end`. Rules can still replace or drop events. Events are
 * redacted first (API keys, tokens, passwords, cookies, private keys, emails: see `createRedactor`), so the
 * output can go to logs.
 *
 * @example
 * const renderer = createJsonLinesRenderer({ stream: process.stdout });
 */
export function createJsonLinesRenderer(options: JsonLinesRendererOptions = {}): Renderer {
  const stream = options.stream ?? process.stdout;
  return new Renderer({
    format: "json_lines",
    ...(options.redactor !== undefined && { redactor: options.redactor }),
    write: (text) => {
      stream.write(text);
    },
  });
}
