import { CliError } from "../errors/cli-error.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { Model } from "../models/model.js";
import { createGoogle, DEFAULT_GOOGLE_BASE_URL } from "../providers/google/create-google.js";

function set(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}

/** `GOOGLE_BASE_URL`, checked: a bad one is a configuration error naming the variable. */
function baseURLOf(env: Record<string, string | undefined>): string {
  const value = set(env.GOOGLE_BASE_URL);
  if (value === undefined) return DEFAULT_GOOGLE_BASE_URL;
  let protocol = "";
  try {
    protocol = new URL(value).protocol;
  } catch {
    protocol = "";
  }
  if (protocol !== "http:" && protocol !== "https:") {
    throw CliError.config(
      `GOOGLE_BASE_URL must be an http(s) URL such as http://localhost:8080/v1beta, got "${value}"`,
    );
  }
  return value;
}

/**
 * The model of `agentloop run --model google:<model-id>`: a Gemini model configured from `env`:
 * `GOOGLE_GENERATIVE_AI_API_KEY` (else `GEMINI_API_KEY`) and `GOOGLE_BASE_URL` (another endpoint, e.g. a local
 * server or a proxy; default the Gemini API). A missing key for Google's own API is a configuration error
 * (exit code 3) naming the variables to set.
 */
export function resolveGoogleCliModel({
  modelId,
  env,
}: {
  modelId: string;
  env: Record<string, string | undefined>;
}): Model {
  const baseURL = baseURLOf(env);
  const apiKey = set(env.GOOGLE_GENERATIVE_AI_API_KEY) ?? set(env.GEMINI_API_KEY) ?? "";
  if (apiKey === "" && hostOf(baseURL) === hostOf(DEFAULT_GOOGLE_BASE_URL)) {
    throw CliError.config(
      "GEMINI_API_KEY is not set: export GEMINI_API_KEY=<your key> (or GOOGLE_GENERATIVE_AI_API_KEY) to use " +
        "google: models",
    );
  }
  try {
    return createGoogle({ baseURL, apiKey })(modelId);
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) throw CliError.config(error.message);
    throw error;
  }
}
