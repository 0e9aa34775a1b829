import type { Message } from "../models/message.js";
import type { ModelToolSpec, OutputFormat, ToolChoice } from "../models/model.js";

/** A model request as recorded: the fields the model sees (`providerOptions` is not recorded). */
export interface RecordedModelRequest {
  messages: Message[];
  tools?: ModelToolSpec[];
  toolChoice?: ToolChoice;
  temperature?: number;
  maxOutputTokens?: number;
  parallelToolCalls?: boolean;
  /** The typed answer's schema, when the model was asked for it natively. */
  output?: OutputFormat;
}

/** A model error as recorded: enough to raise the same kind of error again on replay. */
export interface RecordedError {
  /** The error's `name`, e.g. `"ModelCallError"`, `"StreamInterruptedError"`, `"AbortError"`. */
  name: string;
  message: string;
  /** HTTP status, when the error had one. */
  status?: number;
  /** Provider error code, when the error had one. */
  code?: string;
}
