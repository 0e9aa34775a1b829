/** One message of an SSE stream, as the dev UI reads it. */
export interface SseMessage {
  event: string;
  id?: string;
  data: string;
}

/** Parses a whole SSE text into messages (comments such as `: ping` skipped). */
export function parseSse(text: string): SseMessage[] {
  const messages: SseMessage[] = [];
  for (const block of text.split("\n\n")) {
    let event = "message";
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line === "" || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "id") id = value;
      else if (field === "data") data.push(value);
    }
    if (data.length > 0) messages.push({ event, ...(id !== undefined && { id }), data: data.join("\n") });
  }
  return messages;
}
