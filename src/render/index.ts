/**
 * `agentloop/render`: turn a run's events into text for a terminal ({@link createTerminalRenderer}) or JSON
 * Lines for programs ({@link createJsonLinesRenderer}), with per-tool and per-event rules ({@link Renderer});
 * {@link formatEvent} is the built-in rendering of one event and {@link escapeTerminalText} the escaping every
 * printed string goes through (see docs/security.md).
 */

export type { AnsiStyle } from "./ansi-style.js";
export { escapeTerminalText } from "./escape-terminal-text.js";
export { type FormatEventOptions, formatEvent } from "./format-event.js";
export { createJsonLinesRenderer, type JsonLinesRendererOptions } from "./json-lines-renderer.js";
export {
  type RenderContext,
  Renderer,
  type RendererOptions,
  type RenderRule,
  type ToolEvent,
} from "./renderer.js";
export type { RunTotalsSnapshot } from "./run-totals.js";
export {
  createTerminalRenderer,
  type RenderStream,
  type TerminalRendererOptions,
} from "./terminal-renderer.js";
