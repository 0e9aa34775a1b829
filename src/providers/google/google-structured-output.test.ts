import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../agent.js";
import { createGoogle } from "./create-google.js";
import type { GoogleWirePart } from "./google-wire-types.js";
import { geminiAnswer } from "./test-utils/encode-google-sse.js";
import { type GoogleMockServer, startGoogleMockServer } from "./test-utils/google-mock-server.js";

// Typed answers and images through the agent. No Gemini typed answer is recorded in a licensed repository
// (fixtures NOTES §56), so the answers below are SYNTHETIC, in the documented shape.

let server: GoogleMockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const City = z.object({ city: z.string(), population: z.number().int() });

describe.each([false, true])("typed answers over the Google provider (stream: %s)", (streaming) => {
  const runIt = (agent: Agent<unknown>, input: Parameters<Agent["run"]>[0]) =>
    streaming ? agent.stream(input).result : agent.run(input);

  it("Gemini 3 answers natively: responseMimeType JSON with the converted schema, the text parsed", async () => {
    server = await startGoogleMockServer([
      {
        response: geminiAnswer({
          parts: [{ text: '{"city": "Paris", "population": 2102650}' }],
          modelVersion: "gemini-3-flash-preview",
        }),
      },
    ]);
    const model = createGoogle({ baseURL: server.baseURL, apiKey: "k" })("gemini-3-flash-preview");
    const agent = new Agent({ model, output: City });
    const result = await runIt(agent as Agent<unknown>, "Largest city of France?");
    expect(result.stopReason).toBe("completed");
    expect(result.output).toEqual({ city: "Paris", population: 2102650 });
    const config = server.requests[0]?.body?.generationConfig as Record<string, unknown>;
    expect(config.responseMimeType).toBe("application/json");
    expect(config.responseJsonSchema).toMatchObject({
      type: "object",
      properties: { city: { type: "string" }, population: { type: "integer" } },
      required: ["city", "population"],
    });
    expect(JSON.stringify(config.responseJsonSchema)).not.toContain("$schema");
  });

  it("Gemini 2.5 answers through the final_answer function (it cannot mix JSON mode and tools)", async () => {
    server = await startGoogleMockServer([
      {
        response: geminiAnswer({
          parts: [{ functionCall: { name: "final_answer", args: { city: "Paris", population: 2102650 } } }],
        }),
      },
    ]);
    const model = createGoogle({ baseURL: server.baseURL, apiKey: "k" })("gemini-2.5-flash");
    const result = await runIt(
      new Agent({ model, output: City }) as Agent<unknown>,
      "Largest city of France?",
    );
    expect(result.stopReason).toBe("completed");
    expect(result.output).toEqual({ city: "Paris", population: 2102650 });
    const body = server.requests[0]?.body ?? {};
    expect(
      (body.generationConfig as Record<string, unknown> | undefined)?.responseJsonSchema,
    ).toBeUndefined();
    const tools = (body.tools ?? []) as Array<{ functionDeclarations: Array<{ name: string }> }>;
    const declarations = tools[0]?.functionDeclarations;
    expect(declarations?.map((declaration) => declaration.name)).toEqual(["final_answer"]);
  });

  it("sends an image part of the input inline, after the text", async () => {
    server = await startGoogleMockServer([{ response: geminiAnswer({ parts: [{ text: "A red dot." }] }) }]);
    const model = createGoogle({ baseURL: server.baseURL, apiKey: "k" })("gemini-2.5-flash");
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const result = await runIt(new Agent({ model }) as Agent<unknown>, [
      { type: "text", text: "What is this?" },
      { type: "image", data: png, mediaType: "image/png" },
    ]);
    expect(result.text).toBe("A red dot.");
    const contents = (server.requests[0]?.body?.contents ?? []) as Array<{ parts: GoogleWirePart[] }>;
    const parts = contents[0]?.parts;
    expect(parts).toEqual([
      { text: "What is this?" },
      { inlineData: { mimeType: "image/png", data: png.toString("base64") } },
    ]);
  });
});
