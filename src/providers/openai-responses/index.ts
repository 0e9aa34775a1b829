/**
 * The OpenAI Responses API provider (`createOpenAI().responses(modelId)`).
 */
export {
  type BuildOpenAIResponsesBodyOptions,
  buildOpenAIResponsesBody,
  convertToOpenAIResponsesToolChoice,
  convertToOpenAIResponsesTools,
  OPENAI_RESPONSES_DEFAULT_INCLUDE,
} from "./build-openai-responses-body.js";
export {
  convertMessageToOpenAIResponsesItems,
  convertToOpenAIResponsesInput,
  type OpenAIResponsesInput,
  recordedOpenAIResponsesOutput,
} from "./convert-to-openai-responses-input.js";
export {
  type MapOpenAIResponsesFinishReasonOptions,
  mapOpenAIResponsesFinishReason,
  mapOpenAIResponsesUsage,
} from "./map-openai-responses.js";
export {
  OpenAIResponsesModel,
  type OpenAIResponsesModelConfig,
  type OpenAIResponsesModelOptions,
} from "./openai-responses-model.js";
export type {
  OpenAIResponsesInputItem,
  OpenAIResponsesProviderData,
  OpenAIResponsesWireItem,
  OpenAIResponsesWireTool,
  OpenAIResponsesWireToolChoice,
  OpenAIResponsesWireUsage,
} from "./openai-responses-wire-types.js";
export {
  type FoldedOpenAIResponsesOutput,
  foldOpenAIResponsesOutput,
  type ParseOpenAIResponseOptions,
  parseOpenAIResponse,
} from "./parse-openai-response.js";
export {
  type ReadOpenAIResponsesStreamOptions,
  readOpenAIResponsesStream,
} from "./read-openai-responses-stream.js";
