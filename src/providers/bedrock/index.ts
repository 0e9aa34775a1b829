/**
 * The Amazon Bedrock provider (Converse API: `POST /model/{modelId}/converse` and `/converse-stream`):
 * text, images and documents, tool use, reasoning, streaming over AWS event streams, SigV4 or API-key auth.
 */
export type { BedrockCredentials, BedrockCredentialsSource } from "./bedrock-auth.js";
export type { BedrockConverseModel, BedrockConverseModelConfig } from "./bedrock-converse-model.js";
export type { BedrockProviderData } from "./convert-to-bedrock-messages.js";
export {
  type BedrockProvider,
  type BedrockProviderOptions,
  createBedrock,
  DEFAULT_BEDROCK_TIMEOUT_MS,
} from "./create-bedrock.js";
