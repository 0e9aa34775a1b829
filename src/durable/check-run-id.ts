import { InvalidArgumentError } from "../errors/invalid-argument-error.js";

/** Throws {@link InvalidArgumentError} unless `runId` is a non-empty string. */
export function checkRunId(runId: unknown): asserts runId is string {
  if (typeof runId !== "string" || runId === "") {
    throw new InvalidArgumentError({ argument: "runId", message: "expected a non-empty string" });
  }
}
