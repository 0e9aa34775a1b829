import { describe, expect, it } from "vitest";
import { UnsupportedContentError } from "../../errors/unsupported-content-error.js";
import type { ContentPart } from "../../models/content-part.js";
import type { ToolMessage } from "../../models/message.js";
import {
  convertOpenAIToolResult,
  convertToOpenAIContentPart,
  convertToOpenAIUserContent,
} from "./convert-openai-content.js";

const PNG = "iVBORw0KGgo=";
const PDF = "JVBERi0xLjQK";

function thrown(run: () => unknown): UnsupportedContentError {
  try {
    run();
  } catch (error) {
    if (UnsupportedContentError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an UnsupportedContentError");
}

describe("convertToOpenAIUserContent", () => {
  it("keeps a string, and joins text-only parts into one string", () => {
    expect(convertToOpenAIUserContent("hi")).toBe("hi");
    expect(
      convertToOpenAIUserContent([
        { type: "text", text: "a" },
        { type: "text", text: "b" },
      ]),
    ).toBe("a\nb");
  });

  it("sends text, images and PDFs as content parts in the order given", () => {
    const parts: ContentPart[] = [
      { type: "image", data: PNG, mediaType: "image/png" },
      { type: "text", text: "What is this?" },
      { type: "file", data: PDF, mediaType: "application/pdf", filename: "a.pdf" },
      { type: "image", url: "https://example.com/cat.jpg", detail: "low" },
    ];
    expect(convertToOpenAIUserContent(parts)).toEqual([
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
      { type: "text", text: "What is this?" },
      { type: "file", file: { filename: "a.pdf", file_data: `data:application/pdf;base64,${PDF}` } },
      { type: "image_url", image_url: { url: "https://example.com/cat.jpg", detail: "low" } },
    ]);
  });

  it("names an unnamed PDF file.pdf (OpenAI requires a filename with file_data)", () => {
    expect(convertToOpenAIContentPart({ type: "file", data: PDF, mediaType: "application/pdf" })).toEqual({
      type: "file",
      file: { filename: "file.pdf", file_data: `data:application/pdf;base64,${PDF}` },
    });
  });

  it("sends a file part holding an image as an image", () => {
    expect(convertToOpenAIContentPart({ type: "file", data: PNG, mediaType: "image/png" })).toEqual({
      type: "image_url",
      image_url: { url: `data:image/png;base64,${PNG}` },
    });
  });
});

describe("convertToOpenAIContentPart: what Chat Completions cannot take", () => {
  it("refuses a file that is not a PDF, pointing to the Responses API", () => {
    const error = thrown(() =>
      convertToOpenAIContentPart({ type: "file", data: "YQ==", mediaType: "text/csv", filename: "a.csv" }),
    );
    expect(error).toMatchObject({
      provider: "openai_chat",
      partType: "file",
      mediaType: "text/csv",
      isRetryable: false,
      code: "unsupported_content",
    });
    expect(error.reason).toContain("PDF files only");
    expect(error.message).toContain("responses(");
  });

  it("refuses a PDF by URL (Chat Completions takes inline files only)", () => {
    const error = thrown(() =>
      convertToOpenAIContentPart({ type: "file", url: "https://x.test/a.pdf", mediaType: "application/pdf" }),
    );
    expect(error.reason).toContain("inline only, not by URL");
  });

  it("refuses image types OpenAI does not read, and an inline image without a media type", () => {
    expect(
      thrown(() => convertToOpenAIContentPart({ type: "image", data: "AA==", mediaType: "image/bmp" })),
    ).toMatchObject({ partType: "image", mediaType: "image/bmp" });
    expect(thrown(() => convertToOpenAIContentPart({ type: "image", data: "AA==" })).reason).toContain(
      "needs its mediaType",
    );
    expect(
      thrown(() =>
        convertToOpenAIContentPart({ type: "image", url: "https://x.test/a.tiff", mediaType: "image/tiff" }),
      ).mediaType,
    ).toBe("image/tiff");
  });

  it("refuses audio given as a file", () => {
    expect(
      thrown(() => convertToOpenAIContentPart({ type: "file", data: "AA==", mediaType: "audio/mpeg" }))
        .reason,
    ).toContain("audio and video");
  });
});

describe("convertOpenAIToolResult", () => {
  const tool = (content: ToolMessage["content"]): ToolMessage => ({
    role: "tool",
    toolCallId: "call_1",
    toolName: "screenshot",
    content,
  });

  it("keeps a text result as it is, with no attachments", () => {
    expect(convertOpenAIToolResult(tool("42"))).toEqual({ text: "42", attachments: [] });
    expect(convertOpenAIToolResult(tool([{ type: "text", text: "a" }]))).toEqual({
      text: "a",
      attachments: [],
    });
  });

  it("keeps the text in the tool message and returns the images as labelled user parts", () => {
    const result = convertOpenAIToolResult(
      tool([
        { type: "text", text: "Here it is." },
        { type: "image", data: PNG, mediaType: "image/png" },
        { type: "image", url: "https://x.test/b.webp", mediaType: "image/webp" },
      ]),
    );
    expect(result.text).toBe("Here it is.\n[2 attachments follow in the next user message]");
    expect(result.attachments).toEqual([
      { type: "text", text: "Attachments of the result of tool call call_1 (screenshot):" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
      { type: "image_url", image_url: { url: "https://x.test/b.webp" } },
    ]);
  });

  it("gives an image-only result a text that says where the image is", () => {
    const result = convertOpenAIToolResult(tool([{ type: "image", data: PNG, mediaType: "image/png" }]));
    expect(result.text).toBe("[1 attachment follows in the next user message]");
  });

  it("refuses a tool result part Chat Completions cannot take", () => {
    expect(() =>
      convertOpenAIToolResult(tool([{ type: "file", data: "YQ==", mediaType: "text/plain" }])),
    ).toThrow(UnsupportedContentError);
  });
});
