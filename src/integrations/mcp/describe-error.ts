/**
 * An error's message for an error message of ours, with its cause's code or message appended when it has one
 * (`fetch` says only "fetch failed" and puts `ECONNREFUSED` in its cause).
 *
 * @example
 * describeError(new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } })); // "fetch failed (ECONNREFUSED)"
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (typeof cause?.code === "string") return `${error.message} (${cause.code})`;
  if (typeof cause?.message === "string" && cause.message !== "")
    return `${error.message} (${cause.message})`;
  return error.message;
}
