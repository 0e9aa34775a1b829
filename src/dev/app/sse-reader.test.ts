import { describe, expect, it } from "vitest";
import { SseReader } from "./sse-reader.js";

describe("SseReader", () => {
  it("reads messages split anywhere across chunks, skipping comments", () => {
    const text = 'id: 1\ndata: {"a":1}\n\n: ping\n\nevent: result\r\ndata: {"b":\ndata: 2}\r\n\r\n';
    for (let size = 1; size <= text.length; size++) {
      const reader = new SseReader();
      const messages = [];
      for (let i = 0; i < text.length; i += size) messages.push(...reader.push(text.slice(i, i + size)));
      expect(messages, String(size)).toEqual([
        { event: "message", id: "1", data: '{"a":1}' },
        { event: "result", id: undefined, data: '{"b":\n2}' },
      ]);
    }
  });
});
