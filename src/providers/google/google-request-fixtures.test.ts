import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../../agent.js";
import { tool } from "../../tools/tool.js";
import { type FixtureServer, startFixtureServer } from "../openai/test-utils/fixture-server.js";
import { createGoogle } from "./create-google.js";
import type { GoogleWireContent, GoogleWirePart } from "./google-wire-types.js";
import { readFixture, readJsonFixture } from "./test-utils/fixtures.js";

// The recorded request bodies, compared with what the provider sends for the same conversation.

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface RecordedRequest {
  contents: Array<{ role: string; parts: Array<Record<string, unknown>> }>;
  systemInstruction?: { parts: Array<{ text: string }> };
  safetySettings?: unknown[];
  tools?: Array<{ functionDeclarations: Array<{ name: string; description: string; parameters: unknown }> }>;
  generationConfig?: Record<string, unknown>;
}

/** A base64 string's bytes; Google's Python SDK writes the URL-safe alphabet, this provider the standard one. */
function bytesOf(base64: string): Buffer {
  return Buffer.from(base64.replaceAll("-", "+").replaceAll("_", "/"), "base64");
}

describe("thought-signature-echo.request.json", () => {
  const recorded = readJsonFixture<RecordedRequest>("thought-signature-echo.request.json");
  const modelTurn = recorded.contents[1]?.parts ?? [];
  /** The recorded part the API accepted: the call with its signature (snake_case there, camelCase here). */
  const recordedCall = modelTurn[1] as { function_call: unknown; thoughtSignature: string };

  it("is the follow-up of a Gemini 3 call: user, model (signed call), user (function response)", () => {
    expect(recorded.contents.map((content) => content.role)).toEqual(["user", "model", "user"]);
    expect(recordedCall.thoughtSignature).toHaveLength(300);
  });

  it.each([false, true])(
    "the agent's second request echoes the signature on the call part, byte for byte (stream: %s)",
    async (streaming) => {
      // SYNTHETIC first answer: the recorded model turn, as the response that produced it would carry it.
      const firstAnswer = {
        candidates: [
          {
            content: {
              role: "model",
              parts: [
                { text: "" },
                { functionCall: recordedCall.function_call, thoughtSignature: recordedCall.thoughtSignature },
              ],
            },
            finishReason: "STOP",
          },
        ],
        modelVersion: "gemini-3-flash-preview",
      };
      const second = readFixture("nonstream-cached-content.json");
      server = await startFixtureServer(
        streaming
          ? [
              { body: `data: ${JSON.stringify(firstAnswer)}\r\n\r\n` },
              { body: `data: ${second.toString("utf8")}\r\n\r\n` },
            ]
          : [
              { body: JSON.stringify(firstAnswer), contentType: "application/json" },
              { body: second, contentType: "application/json" },
            ],
      );
      const declaration = recorded.tools?.[0]?.functionDeclarations[0];
      const multiply = tool({
        name: "multiply",
        description: declaration?.description ?? "",
        parameters: declaration?.parameters as Record<string, unknown>,
        execute: (args) => {
          const { x, y } = args as { x: number; y: number };
          return String(x * y);
        },
      });
      const model = createGoogle({
        baseURL: server.baseURL,
        apiKey: "test-key",
        safetySettings: recorded.safetySettings as Array<{ category: string; threshold: string }>,
      })("gemini-3-flash-preview");
      const agent = new Agent({ model, tools: [multiply], retry: { baseDelayMs: 1 } });
      const result = streaming
        ? await agent.stream("What is 5 times 3?").result
        : await agent.run("What is 5 times 3?");
      expect(result.stopReason).toBe("completed");
      expect(result.text).toBe("Paris.");

      const sent = server.requests[1]?.body as RecordedRequest & { contents: GoogleWireContent[] };
      // The recorded body, in this provider's spelling: camelCase keys; the unsigned empty text part of the
      // model turn is not sent back (nothing rides on it).
      const expected = recorded.contents.map((content) => ({
        role: content.role,
        parts: content.parts
          .filter((part) => !(part.text === "" && part.thoughtSignature === undefined))
          .map((part) => {
            const { function_call, function_response, ...rest } = part as GoogleWirePart;
            if (function_call !== undefined) return { functionCall: function_call, ...rest };
            if (function_response !== undefined) return { functionResponse: function_response, ...rest };
            return rest;
          }),
      }));
      expect(sent.contents).toEqual(expected);
      const call = sent.contents[1]?.parts?.[0];
      expect(call?.thoughtSignature).toBe(recordedCall.thoughtSignature);
      expect(sent.safetySettings).toEqual(recorded.safetySettings);
      // The declaration's schema is JSON Schema already: sent as parametersJsonSchema, unchanged.
      expect(sent.tools).toEqual([
        {
          functionDeclarations: [
            {
              name: "multiply",
              description: declaration?.description,
              parametersJsonSchema: declaration?.parameters,
            },
          ],
        },
      ]);
    },
  );
});

describe("nonstream-pdf-input.request.json", () => {
  const recorded = readJsonFixture<RecordedRequest>("nonstream-pdf-input.request.json");
  const parts = recorded.contents[0]?.parts ?? [];
  const inline = parts[1] as { inlineData: { data: string; mimeType: string } };

  it("sends the PDF as an inlineData part after the question, and the system prompt as systemInstruction", async () => {
    server = await startFixtureServer({
      body: readFixture("nonstream-pdf-input.json"),
      contentType: "application/json",
    });
    const model = createGoogle({ baseURL: server.baseURL, apiKey: "test-key" })("gemini-2.0-flash");
    const pdf = bytesOf(inline.inlineData.data);
    expect(pdf.subarray(0, 8).toString("latin1")).toBe("%PDF-1.4");
    const response = await model.generate({
      messages: [
        { role: "system", content: "You are a helpful chatbot." },
        {
          role: "user",
          content: [
            { type: "text", text: "What is the main content on this document?" },
            { type: "file", mediaType: "application/pdf", data: pdf.toString("base64") },
          ],
        },
      ],
    });
    expect(response.text).toBe("The document appears to be a dummy PDF file.\n");

    const sent = server.requests[0]?.body as RecordedRequest;
    expect(sent.systemInstruction?.parts).toEqual(recorded.systemInstruction?.parts);
    expect(sent.contents).toHaveLength(1);
    const [question, file] = sent.contents[0]?.parts ?? [];
    expect(sent.contents[0]?.role).toBe("user");
    expect(question).toEqual(parts[0]);
    expect((file as typeof inline).inlineData.mimeType).toBe(inline.inlineData.mimeType);
    expect(bytesOf((file as typeof inline).inlineData.data).equals(pdf)).toBe(true);
    // No generation settings were asked for: no generationConfig (the recorded SDK sent an empty one).
    expect(sent.generationConfig).toBeUndefined();
  });
});
