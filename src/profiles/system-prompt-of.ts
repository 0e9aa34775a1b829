import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { Profile } from "./profile.js";

/** An Agent's `system` option: a system prompt, or a {@link Profile} rendered as one. */
export type SystemPromptSource = string | Profile;

/**
 * True for a {@link Profile}, also one from another copy of agentloop (anything with a
 * `renderSystemPrompt()` method), so that `system` accepts it without `instanceof`.
 */
export function isProfileLike(value: unknown): value is Pick<Profile, "renderSystemPrompt"> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { renderSystemPrompt?: unknown }).renderSystemPrompt === "function"
  );
}

/**
 * The system prompt text of an Agent's `system` option: a string as is, a {@link Profile} rendered with
 * `renderSystemPrompt()` (once, when the agent is made: the profile is immutable), `undefined` for none.
 * Throws {@link InvalidArgumentError} when a profile-like object renders something other than a string.
 */
export function systemPromptOf(system: SystemPromptSource | undefined): string | undefined {
  if (system === undefined || typeof system === "string") return system;
  const text: unknown = system.renderSystemPrompt();
  if (typeof text !== "string") {
    throw new InvalidArgumentError({
      argument: "system",
      message: "renderSystemPrompt() did not return a string",
    });
  }
  return text;
}
