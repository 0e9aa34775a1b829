/**
 * Wire shapes of the Bedrock Runtime Converse API (`POST /model/{modelId}/converse` and `/converse-stream`),
 * as far as this provider reads or writes them. Values are spelled as the wire spells them.
 */

/** Where media bytes come from: inline base64, or an S3 object. */
export type BedrockWireSource = { bytes: string } | { s3Location: { uri: string; bucketOwner?: string } };

/** `{image: {format, source}}`: format png | jpeg | gif | webp. */
export interface BedrockWireImageBlock {
  image: { format: string; source: BedrockWireSource };
}

/** `{document: {format, name, source}}`: format pdf | csv | doc | docx | xls | xlsx | html | txt | md. */
export interface BedrockWireDocumentBlock {
  document: { format: string; name: string; source: BedrockWireSource };
}

/** A block converted from a content part: text, an image or a document. */
export type BedrockWirePartBlock = { text: string } | BedrockWireImageBlock | BedrockWireDocumentBlock;

/** One block of a tool result's `content`. */
export type BedrockWireToolResultContent = BedrockWirePartBlock | { json: unknown };

/** A reasoning block: shown reasoning with its signature, or encrypted (redacted) reasoning. */
export interface BedrockWireReasoningBlock {
  reasoningContent: { reasoningText: { text: string; signature?: string } } | { redactedContent: string };
}

/** A content block of a message. Blocks this provider does not know are kept as they are (open record). */
export type BedrockWireBlock =
  | { text: string }
  | BedrockWireImageBlock
  | BedrockWireDocumentBlock
  | { toolUse: { toolUseId: string; name: string; input: unknown; type?: string } }
  | {
      toolResult: {
        toolUseId: string;
        content: BedrockWireToolResultContent[];
        status?: "success" | "error";
      };
    }
  | BedrockWireReasoningBlock
  | { cachePoint: { type: "default" } };

/** A message of the conversation. */
export interface BedrockWireMessage {
  role: "user" | "assistant";
  content: BedrockWireBlock[];
}

/** One tool definition. */
export interface BedrockWireTool {
  toolSpec: { name: string; description?: string; inputSchema: { json: unknown } };
}

/** `toolConfig.toolChoice`. */
export type BedrockWireToolChoice =
  | { auto: Record<string, never> }
  | { any: Record<string, never> }
  | {
      tool: { name: string };
    };

/** `toolConfig`. */
export interface BedrockWireToolConfig {
  tools: BedrockWireTool[];
  toolChoice?: BedrockWireToolChoice;
}

/**
 * Token counts. Bedrock reports the cache counters twice (`cacheReadInputTokens` and the older
 * `cacheReadInputTokenCount`, the same for writes); `inputTokens` leaves out the cached tokens.
 */
export interface BedrockWireUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
  cacheReadInputTokenCount?: number;
  cacheWriteInputTokenCount?: number;
}

/** A non-streaming Converse response. */
export interface BedrockWireResponse {
  output?: { message?: { role?: string; content?: unknown } };
  stopReason?: string;
  usage?: BedrockWireUsage;
  metrics?: { latencyMs?: number };
  additionalModelResponseFields?: unknown;
}

/** The payload of a `contentBlockStart` event. */
export interface BedrockWireBlockStart {
  contentBlockIndex?: number;
  start?: { toolUse?: { toolUseId?: string; name?: string } };
}

/** The payload of a `contentBlockDelta` event. */
export interface BedrockWireBlockDelta {
  contentBlockIndex?: number;
  delta?: {
    text?: string;
    toolUse?: { input?: string };
    reasoningContent?: { text?: string; signature?: string; redactedContent?: string };
  };
}

/** The payload of a `messageStop` event. */
export interface BedrockWireMessageStop {
  stopReason?: string;
  additionalModelResponseFields?: unknown;
}

/** The payload of a `metadata` event (after `messageStop`). */
export interface BedrockWireMetadata {
  usage?: BedrockWireUsage;
  metrics?: { latencyMs?: number };
}
