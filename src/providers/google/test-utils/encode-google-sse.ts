import type { GoogleWirePart, GoogleWireResponse, GoogleWireUsage } from "../google-wire-types.js";

/** Options of {@link geminiAnswer}. */
export interface GeminiAnswerOptions {
  parts: GoogleWirePart[];
  finishReason?: string;
  usage?: GoogleWireUsage;
  modelVersion?: string;
  responseId?: string;
}

/** A `generateContent` response with one candidate (SYNTHETIC: for scripted test servers). */
export function geminiAnswer({
  parts,
  finishReason = "STOP",
  usage = { promptTokenCount: 40, candidatesTokenCount: 10, totalTokenCount: 50 },
  modelVersion = "gemini-2.5-flash",
  responseId = "resp-test",
}: GeminiAnswerOptions): GoogleWireResponse {
  return {
    candidates: [{ content: { role: "model", parts }, finishReason, index: 0 }],
    usageMetadata: usage,
    modelVersion,
    responseId,
  };
}

/** Options of {@link encodeGoogleSse}. */
export interface EncodeGoogleSseOptions {
  /** Text parts are split into pieces of this many characters, one chunk each. Default 8. */
  textPieceChars?: number;
}

/**
 * The SSE body a `streamGenerateContent?alt=sse` call would get for `response` (SYNTHETIC): one chunk per part
 * (text parts cut into pieces, the signature on the first piece), the finish reason on the last chunk, the
 * usage snapshot on every chunk (its output counts only on the last), events ended by `\r\n\r\n` as Gemini does.
 */
export function encodeGoogleSse(response: GoogleWireResponse, options: EncodeGoogleSseOptions = {}): string {
  const size = options.textPieceChars ?? 8;
  const candidate = response.candidates?.[0];
  const pieces: GoogleWirePart[] = [];
  for (const part of candidate?.content?.parts ?? []) {
    if (typeof part.text !== "string" || part.text.length <= size) {
      pieces.push(part);
      continue;
    }
    for (let at = 0; at < part.text.length; at += size) {
      const { thoughtSignature, ...rest } = part;
      pieces.push({
        ...rest,
        text: part.text.slice(at, at + size),
        ...(at === 0 && thoughtSignature && { thoughtSignature }),
      });
    }
  }
  if (pieces.length === 0) pieces.push({ text: "" });
  const { candidatesTokenCount: _output, ...promptUsage } = response.usageMetadata ?? {};
  const chunks = pieces.map((part, i) => {
    const last = i === pieces.length - 1;
    return {
      candidates: [
        {
          content: { role: "model", parts: [part] },
          ...(last && candidate?.finishReason && { finishReason: candidate.finishReason }),
          index: 0,
        },
      ],
      usageMetadata: last ? response.usageMetadata : promptUsage,
      modelVersion: response.modelVersion,
      responseId: response.responseId,
    };
  });
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join("");
}
