import type { OpenAICompatiblePreset } from "./openai-compatible-presets.js";

/** The body fields a preset changes: what {@link compatibleBodyEditor} is made from. */
export type BodyEdits = Pick<OpenAICompatiblePreset, "dropFields" | "renameFields" | "requiredToolChoice">;

/**
 * The `editBody` quirk of a preset: removes the fields the server rejects, renames the ones it knows under
 * another name (a field already set under the new name wins), and sends `tool_choice: "required"` under the
 * server's name. It runs after the request's `providerOptions` were merged, so a rejected field never reaches
 * the server, whoever set it. Undefined when the preset changes nothing.
 */
export function compatibleBodyEditor(
  edits: BodyEdits,
): ((body: Record<string, unknown>, stream: boolean) => void) | undefined {
  const { dropFields = [], renameFields = {}, requiredToolChoice } = edits;
  const renames = Object.entries(renameFields);
  if (dropFields.length === 0 && renames.length === 0 && requiredToolChoice === undefined) return undefined;
  return (body) => {
    for (const field of dropFields) delete body[field];
    for (const [from, to] of renames) {
      if (!(from in body)) continue;
      if (!(to in body)) body[to] = body[from];
      delete body[from];
    }
    if (requiredToolChoice !== undefined && body.tool_choice === "required") {
      body.tool_choice = requiredToolChoice;
    }
  };
}
