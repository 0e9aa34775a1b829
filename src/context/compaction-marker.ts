import type { Message, UserMessage } from "../models/message.js";

const MARKER_PATTERN = /^\[(\d+) earlier messages? removed to fit the context window\]/;
const MERGE_SEPARATOR = "\n\n";

/** Merged marker message → the user message it was merged into (to restore the very same object). */
const mergedOriginals = new WeakMap<UserMessage, UserMessage>();

/** The marker text for `removed` messages: `[N earlier messages removed to fit the context window]`. */
export function compactionMarkerText(removed: number): string {
  return `[${removed} earlier message${removed === 1 ? "" : "s"} removed to fit the context window]`;
}

/** A compaction marker found by {@link parseCompactionMarker}. */
export interface ParsedCompactionMarker {
  /** How many messages the marker says were removed. */
  removed: number;
  /**
   * When the marker was merged into a user message: that user message as it was before (the same object when
   * this process merged it, else a new one with the marker stripped). Undefined for a stand-alone marker.
   */
  original: UserMessage | undefined;
}

/**
 * Recognises the message compaction put right after the system messages: a stand-alone user marker message,
 * or a user message whose content starts with the marker followed by a blank line (merged, so that two user
 * messages never follow each other). Undefined for any other message.
 */
export function parseCompactionMarker(message: Message): ParsedCompactionMarker | undefined {
  if (message.role !== "user") return undefined;
  const content = message.content;
  // With parts, the marker is the first text part (merged: followed by the original parts).
  const head = typeof content === "string" ? content : content[0]?.type === "text" ? content[0].text : "";
  const match = MARKER_PATTERN.exec(head);
  if (match === null) return undefined;
  const removed = Number(match[1]);
  const rest = head.slice(match[0].length);
  if (typeof content !== "string") {
    if (rest !== "") return undefined;
    if (content.length === 1) return { removed, original: undefined };
    return { removed, original: mergedOriginals.get(message) ?? { role: "user", content: content.slice(1) } };
  }
  if (rest === "") return { removed, original: undefined };
  if (!rest.startsWith(MERGE_SEPARATOR)) return undefined;
  const original = mergedOriginals.get(message) ?? {
    role: "user",
    content: rest.slice(MERGE_SEPARATOR.length),
  };
  return { removed, original };
}

/** Options of {@link placeCompactionMarker}. */
export interface PlaceCompactionMarkerOptions {
  /** The total number of messages removed so far (earlier compactions included). */
  removed: number;
  /** The first message kept after the system messages, if any. */
  first: Message | undefined;
}

/**
 * The marker to put right after the system messages. When the first kept message is a user message the
 * marker is merged into it (a new object: marker, blank line, the original content; `replaces` is true),
 * else it is a stand-alone user message placed before it — either way the first non-system message is a user
 * message and no two user messages follow each other.
 */
export function placeCompactionMarker({ removed, first }: PlaceCompactionMarkerOptions): {
  marker: UserMessage;
  replacesFirst: boolean;
} {
  const text = compactionMarkerText(removed);
  if (first?.role !== "user") return { marker: { role: "user", content: text }, replacesFirst: false };
  const content = first.content;
  const merged: UserMessage = {
    role: "user",
    content:
      typeof content === "string" ? text + MERGE_SEPARATOR + content : [{ type: "text", text }, ...content],
  };
  mergedOriginals.set(merged, first);
  return { marker: merged, replacesFirst: true };
}
