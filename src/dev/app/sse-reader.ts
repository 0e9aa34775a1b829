/** One message of an SSE stream: its `event` ("message" when the stream named none), `id` and data. */
export interface SseMessage {
  event: string;
  id: string | undefined;
  data: string;
}

/**
 * An incremental reader of the SSE format (what `text/event-stream` responses carry): `push` a decoded chunk,
 * get the messages it completed. Comment lines (`: ping`) and messages without data are skipped; CRLF and
 * CR line ends are read like LF.
 */
export class SseReader {
  private buffer = "";
  private event = "message";
  private id: string | undefined;
  private data: string[] = [];

  /** Reads `chunk` and returns the messages it completed, in order. */
  push(chunk: string): SseMessage[] {
    let text = this.buffer + chunk;
    // A CR at the end may be the first half of a CRLF: wait for the next chunk to tell.
    const held = text.endsWith("\r") ? "\r" : "";
    if (held !== "") text = text.slice(0, -1);
    const messages: SseMessage[] = [];
    const lines = text.split(/\r\n|\r|\n/);
    this.buffer = (lines.pop() ?? "") + held;
    for (const line of lines) {
      if (line === "") {
        if (this.data.length > 0)
          messages.push({ event: this.event, id: this.id, data: this.data.join("\n") });
        this.event = "message";
        this.id = undefined;
        this.data = [];
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") this.event = value;
      else if (field === "id") this.id = value;
      else if (field === "data") this.data.push(value);
    }
    return messages;
  }
}
