import { describe, expect, it } from "vitest";
import { UnsupportedContentError } from "../../errors/unsupported-content-error.js";
import type { ContentPart } from "../../models/content-part.js";
import type { Message } from "../../models/message.js";
import { convertToAnthropicBlock, convertToAnthropicContent } from "./convert-anthropic-content.js";
import { convertToAnthropicMessages } from "./convert-to-anthropic-messages.js";

const PNG = "iVBORw0KGgo=";
const PDF = "JVBERi0xLjQK";

function refusal(part: ContentPart): UnsupportedContentError {
  try {
    convertToAnthropicBlock(part);
  } catch (error) {
    if (UnsupportedContentError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an UnsupportedContentError");
}

describe("convertToAnthropicContent", () => {
  it("keeps a string, and joins text-only parts into one string", () => {
    expect(convertToAnthropicContent("hi")).toBe("hi");
    expect(
      convertToAnthropicContent([
        { type: "text", text: "a" },
        { type: "text", text: "b" },
      ]),
    ).toBe("a\nb");
  });

  it("sends image and document blocks in the order given, leaving out empty text parts", () => {
    expect(
      convertToAnthropicContent([
        { type: "image", data: PNG, mediaType: "image/png" },
        { type: "text", text: "" },
        { type: "text", text: "Describe both." },
        { type: "image", url: "https://x.test/a.jpg" },
        { type: "file", data: PDF, mediaType: "application/pdf", filename: "report.pdf" },
        { type: "file", url: "https://x.test/b.pdf", mediaType: "application/pdf" },
      ]),
    ).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      { type: "text", text: "Describe both." },
      { type: "image", source: { type: "url", url: "https://x.test/a.jpg" } },
      {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: PDF },
        title: "report.pdf",
      },
      { type: "document", source: { type: "url", url: "https://x.test/b.pdf" } },
    ]);
  });

  it("sends a text file as a plain-text document holding the decoded text", () => {
    const data = btoa(String.fromCharCode(...new TextEncoder().encode("héllo\nworld")));
    expect(
      convertToAnthropicBlock({ type: "file", data, mediaType: "text/markdown; charset=utf-8" }),
    ).toEqual({
      type: "document",
      source: { type: "text", media_type: "text/plain", data: "héllo\nworld" },
    });
  });

  it("reads image/jpg as image/jpeg, and a file holding an image as an image", () => {
    expect(convertToAnthropicBlock({ type: "image", data: PNG, mediaType: "image/jpg" })).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/jpeg", data: PNG },
    });
    expect(convertToAnthropicBlock({ type: "file", data: PNG, mediaType: "image/webp" })).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/webp", data: PNG },
    });
  });
});

describe("convertToAnthropicBlock: what Anthropic cannot take", () => {
  it("refuses images other than PNG, JPEG, GIF and WebP", () => {
    expect(refusal({ type: "image", data: "AA==", mediaType: "image/bmp" })).toMatchObject({
      provider: "anthropic",
      partType: "image",
      mediaType: "image/bmp",
      isRetryable: false,
    });
    expect(refusal({ type: "image", url: "https://x.test/a.svg", mediaType: "image/svg+xml" }).partType).toBe(
      "image",
    );
  });

  it("refuses documents other than PDF and text, and text files by URL", () => {
    expect(refusal({ type: "file", data: "AA==", mediaType: "application/zip" }).reason).toContain(
      "PDF and plain-text documents only",
    );
    expect(refusal({ type: "file", url: "https://x.test/a.txt", mediaType: "text/plain" }).reason).toContain(
      "not text files",
    );
    expect(refusal({ type: "file", data: "%%%", mediaType: "text/plain" }).reason).toContain("not base64");
  });
});

describe("tool_result blocks with images", () => {
  it("sends a tool result's parts as the tool_result content blocks, merged with the next user message", () => {
    const history: Message[] = [
      { role: "user", content: "Show me." },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "toolu_1", name: "screenshot", arguments: {}, rawArguments: "{}" }],
      },
      {
        role: "tool",
        toolCallId: "toolu_1",
        toolName: "screenshot",
        content: [
          { type: "image", data: PNG, mediaType: "image/png" },
          { type: "text", text: "the screen" },
          { type: "file", data: PDF, mediaType: "application/pdf" },
        ],
        isError: false,
      },
      { role: "user", content: "Thanks." },
    ];
    const { messages } = convertToAnthropicMessages(history);
    expect(messages[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_1",
          content: [
            { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
            { type: "text", text: "the screen" },
            { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF } },
          ],
        },
        { type: "text", text: "Thanks." },
      ],
    });
  });
});
