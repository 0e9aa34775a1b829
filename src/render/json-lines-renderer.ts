import { Renderer } from "./renderer.js";
import type { RenderStream } from "./terminal-renderer.js";

/** Options of {@link createJsonLinesRenderer}. */
export interface JsonLinesRendererOptions {
  /** Where to write. Default `process.stdout`. */
  stream?: RenderStream;
}

/**
 * A {@link Renderer} for programs: each event as one JSON object (`{ type, step, timestamp, data }`) on its own
 * line, in order; a run's last line is its `loop_end`. Rules can still replace or drop events.
 *
 * @example
 * const renderer = createJsonLinesRenderer({ stream: process.stdout });
 */
export function createJsonLinesRenderer(options: JsonLinesRendererOptions = {}): Renderer {
  const stream = options.stream ?? process.stdout;
  return new Renderer({
    format: "json-lines",
    write: (text) => {
      stream.write(text);
    },
  });
}
