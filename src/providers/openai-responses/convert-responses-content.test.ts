import { describe, expect, it } from "vitest";
import { UnsupportedContentError } from "../../errors/unsupported-content-error.js";
import type { Message } from "../../models/message.js";
import { convertToResponsesContent, convertToResponsesContentPart } from "./convert-responses-content.js";
import { convertToOpenAIResponsesInput } from "./convert-to-openai-responses-input.js";

const PNG = "iVBORw0KGgo=";
const PDF = "JVBERi0xLjQK";

describe("convertToResponsesContent", () => {
  it("keeps a string, and joins text-only parts into one string", () => {
    expect(convertToResponsesContent("hi")).toBe("hi");
    expect(
      convertToResponsesContent([
        { type: "text", text: "a" },
        { type: "text", text: "b" },
      ]),
    ).toBe("a\nb");
  });

  it("sends input_text, input_image (a plain string URL, detail auto by default) and input_file in order", () => {
    expect(
      convertToResponsesContent([
        { type: "file", data: PDF, mediaType: "application/pdf" },
        { type: "text", text: "Compare:" },
        { type: "image", url: "https://x.test/a.jpg" },
        { type: "image", data: PNG, mediaType: "image/png", detail: "high" },
        { type: "file", url: "https://x.test/report.docx", mediaType: "application/msword" },
        { type: "file", data: "aGk=", mediaType: "text/markdown", filename: "notes.md" },
      ]),
    ).toEqual([
      { type: "input_file", filename: "file.pdf", file_data: `data:application/pdf;base64,${PDF}` },
      { type: "input_text", text: "Compare:" },
      { type: "input_image", image_url: "https://x.test/a.jpg", detail: "auto" },
      { type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "high" },
      { type: "input_file", file_url: "https://x.test/report.docx" },
      { type: "input_file", filename: "notes.md", file_data: "data:text/markdown;base64,aGk=" },
    ]);
  });

  it("keeps a file URL's filename when given", () => {
    expect(
      convertToResponsesContentPart({
        type: "file",
        url: "https://x.test/a.pdf",
        mediaType: "application/pdf",
        filename: "a.pdf",
      }),
    ).toEqual({ type: "input_file", file_url: "https://x.test/a.pdf", filename: "a.pdf" });
  });

  it("refuses unsupported image types and audio/video files before anything is sent", () => {
    expect(() =>
      convertToResponsesContentPart({ type: "image", data: "AA==", mediaType: "image/heic" }),
    ).toThrow(UnsupportedContentError);
    try {
      convertToResponsesContentPart({ type: "file", url: "https://x.test/a.mp4", mediaType: "video/mp4" });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ provider: "openai_responses", partType: "file", mediaType: "video/mp4" });
    }
  });
});

describe("function_call_output with images and files", () => {
  it("sends a tool result's parts as the output array, and a text result as a string", () => {
    const history: Message[] = [
      { role: "user", content: "Show me." },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "call_a", name: "screenshot", arguments: {}, rawArguments: "{}" },
          { id: "call_b", name: "clock", arguments: {}, rawArguments: "{}" },
        ],
      },
      {
        role: "tool",
        toolCallId: "call_a",
        toolName: "screenshot",
        content: [
          { type: "text", text: "The screen:" },
          { type: "image", data: PNG, mediaType: "image/png" },
        ],
      },
      { role: "tool", toolCallId: "call_b", toolName: "clock", content: [{ type: "text", text: "12:00" }] },
    ];
    const { input } = convertToOpenAIResponsesInput(history);
    expect(input.slice(3)).toEqual([
      {
        type: "function_call_output",
        call_id: "call_a",
        output: [
          { type: "input_text", text: "The screen:" },
          { type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "auto" },
        ],
      },
      { type: "function_call_output", call_id: "call_b", output: "12:00" },
    ]);
  });

  it("sends user parts in a user message", () => {
    const { input } = convertToOpenAIResponsesInput([
      { role: "user", content: [{ type: "image", url: "https://x.test/a.gif" }] },
    ]);
    expect(input).toEqual([
      { role: "user", content: [{ type: "input_image", image_url: "https://x.test/a.gif", detail: "auto" }] },
    ]);
  });
});
