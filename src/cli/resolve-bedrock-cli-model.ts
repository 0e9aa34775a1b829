import { CliError } from "../errors/cli-error.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { Model } from "../models/model.js";
import type { BedrockProviderOptions } from "../providers/bedrock/create-bedrock.js";
import { createBedrock } from "../providers/bedrock/create-bedrock.js";

function set(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/** The endpoint the environment sets (the AWS SDKs' variables), checked; undefined: the region's. */
function endpointOf(env: Record<string, string | undefined>): string | undefined {
  for (const variable of ["AWS_ENDPOINT_URL_BEDROCK_RUNTIME", "AWS_ENDPOINT_URL"]) {
    const value = set(env[variable]);
    if (value === undefined) continue;
    let protocol = "";
    try {
      protocol = new URL(value).protocol;
    } catch {
      protocol = "";
    }
    if (protocol !== "http:" && protocol !== "https:") {
      throw CliError.config(`${variable} must be an http(s) URL, got "${value}"`);
    }
    return value;
  }
  return undefined;
}

/**
 * The model of `agentloop run --model bedrock:<model-id>`: Amazon Bedrock's Converse API configured from
 * `env`: `AWS_REGION` (or `AWS_DEFAULT_REGION`), `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` /
 * `AWS_SESSION_TOKEN` or `AWS_BEARER_TOKEN_BEDROCK`, and `AWS_ENDPOINT_URL_BEDROCK_RUNTIME` (else
 * `AWS_ENDPOINT_URL`) for another endpoint. A missing region or missing credentials for AWS's own endpoint are
 * configuration errors (exit code 3) naming the variables to set.
 */
export function resolveBedrockCliModel({
  modelId,
  env,
}: {
  modelId: string;
  env: Record<string, string | undefined>;
}): Model {
  const baseURL = endpointOf(env);
  const region = set(env.AWS_REGION) ?? set(env.AWS_DEFAULT_REGION);
  if (region === undefined && baseURL === undefined) {
    throw CliError.config(
      "AWS_REGION is not set: export AWS_REGION=<region> (e.g. us-east-1) to use bedrock: models",
    );
  }
  const apiKey = set(env.AWS_BEARER_TOKEN_BEDROCK);
  const accessKeyId = set(env.AWS_ACCESS_KEY_ID);
  const secretAccessKey = set(env.AWS_SECRET_ACCESS_KEY);
  const sessionToken = set(env.AWS_SESSION_TOKEN);
  const options: BedrockProviderOptions = {
    ...(baseURL !== undefined && { baseURL }),
    ...(region !== undefined && { region }),
    ...(apiKey !== undefined && { apiKey }),
    ...(accessKeyId !== undefined &&
      secretAccessKey !== undefined && {
        credentials: { accessKeyId, secretAccessKey, ...(sessionToken !== undefined && { sessionToken }) },
      }),
  };
  const aws = baseURL === undefined || /\.amazonaws\.com(\.cn)?$/.test(new URL(baseURL).hostname);
  if (aws && options.apiKey === undefined && options.credentials === undefined) {
    throw CliError.config(
      "AWS credentials are not set: export AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN " +
        "for temporary credentials), or AWS_BEARER_TOKEN_BEDROCK (a Bedrock API key)",
    );
  }
  try {
    return createBedrock(options)(modelId);
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) throw CliError.config(error.message);
    throw error;
  }
}
