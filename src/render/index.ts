/**
 * Renderers: turn a run's events into text for a terminal ({@link createTerminalRenderer}) or JSON Lines for
 * programs ({@link createJsonLinesRenderer}), with per-tool and per-event rules ({@link Renderer}).
 */

export {
  type AnsiStyle,
  type AnsiStyleOptions,
  createAnsiStyle,
  type ShouldUseColorOptions,
  shouldUseColor,
  stripAnsi,
} from "./ansi-style.js";
export { escapeJsonForTerminal, escapeTerminalText, escapeTerminalValue } from "./escape-terminal-text.js";
export { type FormatEventOptions, formatEvent } from "./format-event.js";
export {
  formatArgs,
  formatCost,
  formatCount,
  formatDuration,
  orderCallArgs,
  type TruncateTextOptions,
  truncateText,
  WHERE_ARGUMENT,
} from "./format-values.js";
export { createJsonLinesRenderer, type JsonLinesRendererOptions } from "./json-lines-renderer.js";
export {
  DEFAULT_MAX_RESULT_CHARS,
  type RenderContext,
  Renderer,
  type RendererOptions,
  type RenderRule,
  type ToolEvent,
} from "./renderer.js";
export { RunTotals, type RunTotalsSnapshot } from "./run-totals.js";
export {
  createTerminalRenderer,
  type RenderStream,
  type TerminalRendererOptions,
} from "./terminal-renderer.js";
