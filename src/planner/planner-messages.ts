import { baseLanguage } from "../profiles/language-name.js";
import type { PlanObservation } from "./plan-observation.js";

/** The user-facing texts of a {@link PlanAgent} in one language. */
export interface PlannerMessages {
  /** The answer when no plan could be made (the plan was empty, or every step was dropped). */
  noPlan: string;
  /** One line of the template answer, e.g. `#1 tool calculator succeeded: 47`. */
  observationLine: (observation: PlanObservation) => string;
}

/** A failure's message without the executor's `Tool "name" failed: ` prefix (the line names the tool already). */
function failureText(o: Extract<PlanObservation, { ok: false }>): string {
  const prefix = `Tool ${JSON.stringify(o.toolName)} failed: `;
  return o.error.message.startsWith(prefix) ? o.error.message.slice(prefix.length) : o.error.message;
}

const EN: PlannerMessages = {
  noPlan: "Sorry, I could not make a plan for this request.",
  observationLine: (o) =>
    o.ok
      ? `#${o.step} tool ${o.toolName} succeeded: ${o.result}`
      : `#${o.step} tool ${o.toolName} failed: ${failureText(o)}`,
};

const ZH: PlannerMessages = {
  noPlan: "抱歉，我无法为这个请求制定计划。",
  observationLine: (o) =>
    o.ok
      ? `#${o.step} 工具 ${o.toolName} 成功: ${o.result}`
      : `#${o.step} 工具 ${o.toolName} 失败: ${failureText(o)}`,
};

const MESSAGES: Readonly<Record<string, PlannerMessages>> = { en: EN, zh: ZH };

/**
 * The planner's texts for a profile language, matched on the base subtag (`"zh-TW"` → Chinese). Chinese and
 * English are built in; any other language gets English.
 */
export function plannerMessages(language: string): PlannerMessages {
  return MESSAGES[baseLanguage(language)] ?? EN;
}

/**
 * The answer of a run that ended without a reply step and without a summarizer: one localised line per
 * observation (`#1 工具 calculator 成功: 47`), or the "no plan" text when nothing ran.
 */
export function formatObservationReport({
  observations,
  language,
}: {
  observations: readonly PlanObservation[];
  language: string;
}): string {
  const messages = plannerMessages(language);
  if (observations.length === 0) return messages.noPlan;
  return observations.map((o) => messages.observationLine(o)).join("\n");
}
