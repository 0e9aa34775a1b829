import { describe, expect, it } from "vitest";
import { base64ByteLength, formatMcpResult, mcpResultContent } from "./format-mcp-result.js";

const PNG = Buffer.from("\x89PNG fake image bytes", "latin1").toString("base64");

describe("formatMcpResult", () => {
  it("joins text blocks with newlines", () => {
    const result = {
      content: [
        { type: "text", text: "one" },
        { type: "text", text: "two" },
      ],
    };
    expect(formatMcpResult({ result })).toBe("one\ntwo");
  });

  it("prefers structuredContent, as compact JSON", () => {
    const result = {
      content: [{ type: "text", text: '{ "a": 1 }' }],
      structuredContent: { a: 1, b: [true, null] },
    };
    expect(formatMcpResult({ result })).toBe('{"a":1,"b":[true,null]}');
  });

  it("uses the text of error results even when structuredContent is present", () => {
    const result = {
      content: [{ type: "text", text: "bad input" }],
      structuredContent: { a: 1 },
      isError: true,
    };
    expect(formatMcpResult({ result })).toBe("bad input");
  });

  it("replaces images and audio with a placeholder giving type and size", () => {
    const result = {
      content: [
        { type: "image", data: Buffer.from("12345").toString("base64"), mimeType: "image/png" },
        { type: "audio", data: Buffer.from("1234").toString("base64"), mimeType: "audio/wav" },
      ],
    };
    expect(formatMcpResult({ result })).toBe(
      "[image: image/png, 5 bytes]\n[audio: audio/wav, 4 bytes; not sent: models take no audio in tool results]",
    );
  });

  it("gives embedded resources as their text (JSON compacted) or a placeholder for blobs", () => {
    const result = {
      content: [
        { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "plain text" } },
        {
          type: "resource",
          resource: { uri: "file:///a.json", mimeType: "application/json", text: '{\n "x": 1\n}' },
        },
        {
          type: "resource",
          resource: { uri: "file:///b.bin", mimeType: "application/octet-stream", blob: "AAEC" },
        },
        { type: "resource_link", uri: "file:///c.md", name: "notes", mimeType: "text/markdown" },
        { type: "something-new", value: 1 },
      ],
    };
    expect(formatMcpResult({ result }).split("\n")).toEqual([
      "plain text",
      '{"x":1}',
      "[resource: file:///b.bin, application/octet-stream, 3 bytes]",
      "[resource link: notes, file:///c.md, text/markdown]",
      "[something-new content]",
    ]);
  });

  it('says "(empty)" when there is nothing to show', () => {
    expect(formatMcpResult({ result: { content: [] } })).toBe("(empty)");
    expect(formatMcpResult({ result: {} })).toBe("(empty)");
  });
});

describe("base64ByteLength", () => {
  it("counts decoded bytes, padding and whitespace included", () => {
    for (const text of ["", "a", "ab", "abc", "abcd", "hello world!"]) {
      const encoded = Buffer.from(text).toString("base64");
      expect(base64ByteLength(encoded)).toBe(text.length);
      expect(base64ByteLength(`${encoded.slice(0, 2)}\n${encoded.slice(2)}`)).toBe(text.length);
    }
  });
});

describe("mcpResultContent", () => {
  it("is the text of formatMcpResult when there is no image or binary resource", () => {
    const result = {
      content: [
        { type: "text", text: "one" },
        { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "two" } },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      ],
    };
    expect(mcpResultContent({ result })).toBe(formatMcpResult({ result }));
  });

  it("keeps images as image parts, in order between the text blocks", () => {
    const result = {
      content: [
        { type: "text", text: "before" },
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "text", text: "after" },
      ],
    };
    expect(mcpResultContent({ result })).toEqual([
      { type: "text", text: "before" },
      { type: "image", data: PNG, mediaType: "image/png" },
      { type: "text", text: "after" },
    ]);
  });

  it("turns blob resources into file parts named after the URI, image/* blobs into image parts", () => {
    const result = {
      content: [
        {
          type: "resource",
          resource: { uri: "file:///tmp/report.pdf", mimeType: "application/pdf", blob: "JVBERg==" },
        },
        { type: "resource", resource: { uri: "demo://chart.png?v=2", mimeType: "image/png", blob: PNG } },
        { type: "resource", resource: { uri: "demo:", blob: "AAEC" } },
        {
          type: "resource",
          resource: { uri: "file:///a.json", mimeType: "application/json", text: '{ "x": 1 }' },
        },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      ],
    };
    expect(mcpResultContent({ result })).toEqual([
      { type: "file", data: "JVBERg==", mediaType: "application/pdf", filename: "report.pdf" },
      { type: "image", data: PNG, mediaType: "image/png" },
      { type: "file", data: "AAEC", mediaType: "application/octet-stream" },
      { type: "text", text: '{"x":1}' },
      { type: "text", text: "[audio: audio/wav, 3 bytes; not sent: models take no audio in tool results]" },
    ]);
  });

  it("drops line breaks in base64 data and describes blocks whose data is not base64", () => {
    const wrapped = `${PNG.slice(0, 8)}\r\n${PNG.slice(8)}`;
    const result = {
      content: [
        { type: "image", data: wrapped, mimeType: "image/png" },
        { type: "image", data: "not base64!", mimeType: "image/png" },
        { type: "image", data: PNG },
      ],
    };
    expect(mcpResultContent({ result })).toEqual([
      { type: "image", data: PNG, mediaType: "image/png" },
      { type: "text", text: "[image: image/png, 7 bytes]" },
      { type: "text", text: `[image: unknown type, ${base64ByteLength(PNG)} bytes]` },
    ]);
  });

  it("puts structuredContent's JSON first and keeps the media parts, not the repeated text", () => {
    const result = {
      content: [
        { type: "text", text: '{ "a": 1 }' },
        { type: "image", data: PNG, mimeType: "image/png" },
      ],
      structuredContent: { a: 1 },
    };
    expect(mcpResultContent({ result })).toEqual([
      { type: "text", text: '{"a":1}' },
      { type: "image", data: PNG, mediaType: "image/png" },
    ]);
  });
});
