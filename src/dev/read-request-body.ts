import type { IncomingMessage } from "node:http";

/** The largest JSON body the dev server reads by default (a chat message, decisions): 1 MB. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** Options of {@link readRequestBody}. */
export interface ReadRequestBodyOptions {
  request: IncomingMessage;
  /** A body longer than this is refused (413) without being read to its end. */
  maxBytes: number;
}

/** A request body read as UTF-8 text, or why it was refused (an HTTP status and a message). */
export type RequestBody = { ok: true; text: string } | { ok: false; status: number; message: string };

/**
 * Reads a request body as UTF-8 text, up to `maxBytes`: a body announced (`content-length`) or found to be
 * longer is refused with 413 and the connection's remaining input is discarded, so a client cannot make the
 * server buffer without bound.
 */
export function readRequestBody({ request, maxBytes }: ReadRequestBodyOptions): Promise<RequestBody> {
  const announced = Number(request.headers["content-length"] ?? Number.NaN);
  const tooLarge: RequestBody = { ok: false, status: 413, message: `the body is over ${maxBytes} bytes` };
  if (Number.isFinite(announced) && announced > maxBytes) {
    request.resume();
    return Promise.resolve(tooLarge);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (body: RequestBody): void => {
      if (done) return;
      done = true;
      resolve(body);
    };
    request.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        request.resume();
        finish(tooLarge);
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => finish({ ok: true, text: Buffer.concat(chunks).toString("utf8") }));
    request.on("error", (error) => finish({ ok: false, status: 400, message: error.message }));
    request.on("aborted", () => finish({ ok: false, status: 400, message: "the request was aborted" }));
  });
}

/** Options of {@link readJsonBody}. */
export interface ReadJsonBodyOptions extends Partial<ReadRequestBodyOptions> {
  request: IncomingMessage;
}

/** A JSON object body, or why it was refused. */
export type JsonBody =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; status: number; message: string };

/**
 * Reads a JSON object body (at most `maxBytes`, default {@link MAX_JSON_BODY_BYTES}). Anything but a JSON object
 * is refused with 400; a request that does not say `content-type: application/json` with 415 (a plain HTML
 * form cannot send that without a CORS preflight, so another site cannot post one).
 */
export async function readJsonBody({
  request,
  maxBytes = MAX_JSON_BODY_BYTES,
}: ReadJsonBodyOptions): Promise<JsonBody> {
  const type = String(request.headers["content-type"] ?? "")
    .split(";")[0]
    ?.trim()
    .toLowerCase();
  if (type !== "application/json") {
    request.resume();
    return { ok: false, status: 415, message: "expected content-type: application/json" };
  }
  const body = await readRequestBody({ request, maxBytes });
  if (!body.ok) return body;
  let value: unknown;
  try {
    value = JSON.parse(body.text === "" ? "{}" : body.text);
  } catch {
    return { ok: false, status: 400, message: "the body is not valid JSON" };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, status: 400, message: "expected a JSON object" };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
