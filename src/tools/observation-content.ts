import type { ContentPart } from "../models/content-part.js";

/**
 * The content parts of tool results, by the `data` of their `observation` event. An observation's `result`
 * is text (media parts as short notes: events go to logs and renderers, never base64); the trace recorder,
 * which sees only events, reads the parts here to record the result exactly, so that a replay gives the
 * model the same images. Weak: nothing is kept once the event is gone.
 */
const contents = new WeakMap<object, ContentPart[]>();

/** Options of {@link setObservationContent}. */
export interface SetObservationContentOptions {
  /** The `data` object of the `observation` event. */
  data: object;
  /** The tool result's parts, as sent to the model. */
  parts: ContentPart[];
}

/** Records the parts of the tool result an `observation` event reports. */
export function setObservationContent({ data, parts }: SetObservationContentOptions): void {
  contents.set(data, parts);
}

/** The parts of the tool result an `observation` event reports (its `data`), when it had parts. */
export function observationContent(data: object): ContentPart[] | undefined {
  return contents.get(data);
}
