import type { PendingApproval } from "../loop/tool-step.js";
import { escapeTerminalText } from "../render/escape-terminal-text.js";
import { formatArgs, WHERE_ARGUMENT } from "../render/format-values.js";

/** Values longer than this (as shown) are folded in the summary; `v` shows them whole. */
export const FOLD_AT_CHARS = 200;

interface Field {
  name: string;
  /** The value as shown: strings quoted, other values as JSON; escaped for the terminal. */
  shown: string;
  /** The value's own length: a string's characters, else its JSON's. */
  length: number;
  where: boolean;
}

function fieldsOf(args: unknown): Field[] {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    const text = formatArgs(args);
    return [{ name: "(arguments)", shown: escapeTerminalText(text), length: text.length, where: false }];
  }
  return Object.entries(args).map(([name, value]) => {
    const text = typeof value === "string" ? value : formatArgs(value);
    return {
      name: escapeTerminalText(name),
      shown: escapeTerminalText(typeof value === "string" ? JSON.stringify(value) : text),
      length: text.length,
      where: WHERE_ARGUMENT.test(name),
    };
  });
}

/** Where-fields first, then short ones, then long ones; each group in the call's own order. */
function ordered(fields: Field[]): Field[] {
  const rank = (field: Field): number => (field.where ? 0 : field.shown.length <= FOLD_AT_CHARS ? 1 : 2);
  return fields
    .map((field, index) => ({ field, index }))
    .sort((a, b) => rank(a.field) - rank(b.field) || a.index - b.index)
    .map(({ field }) => field);
}

/**
 * The summary of a pending call shown before the approval question: one line per argument, the fields that
 * say where the call acts (`path`, `url`, `command`, ...) first and whole, then short fields, then long
 * values folded to their first {@link FOLD_AT_CHARS} characters with their length and how to see them whole.
 * Nothing the model wrote can hide another field or act on the terminal: every value is escaped.
 */
export function formatPendingCall({ call }: { call: PendingApproval }): { text: string; folded: boolean } {
  const fields = ordered(fieldsOf(call.arguments));
  let folded = false;
  const lines = fields.map(({ name, shown, length, where }) => {
    if (where || shown.length <= FOLD_AT_CHARS) return `    ${name}: ${shown}`;
    folded = true;
    return `    ${name}: ${shown.slice(0, FOLD_AT_CHARS)}… [folded: ${length.toLocaleString("en-US")} chars in all; answer v to view]`;
  });
  const where = call.agent === undefined ? "" : `, in ${escapeTerminalText(call.agent)}`;
  const header = `? approval needed: ${escapeTerminalText(call.toolName)} (call ${escapeTerminalText(call.toolCallId)}${where})`;
  return { text: `${header}\n${lines.length === 0 ? "    (no arguments)" : lines.join("\n")}\n`, folded };
}

/** Every argument of the call in full, as blocks (strings with their line breaks), escaped for the terminal. */
export function formatPendingCallInFull({ call }: { call: PendingApproval }): string {
  const args = call.arguments;
  const entries: Array<[string, unknown]> =
    typeof args === "object" && args !== null && !Array.isArray(args)
      ? Object.entries(args)
      : [["(arguments)", args]];
  const blocks = entries.map(([name, value]) => {
    const text = typeof value === "string" ? value : formatArgs(value);
    const label = escapeTerminalText(name);
    // Each line of the value is prefixed, so a value cannot fake the end of its block or another field.
    const body = escapeTerminalText(text).replace(/^/gm, "  | ");
    return `--- ${label} (${text.length.toLocaleString("en-US")} chars) ---\n${body}\n--- end of ${label} ---`;
  });
  return `${blocks.join("\n")}\n`;
}
