import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { languageName } from "./language-name.js";

/** A profile as plain data: what {@link Profile.toJSON} returns and {@link Profile.fromJSON} reads. */
export interface ProfileData {
  /** What the agent calls itself. */
  name: string;
  /** What the agent is, e.g. "travel planner" (rendered with an article: "a travel planner"). */
  role: string;
  /** What the agent tries to achieve, one per entry. */
  goals: string[];
  /** The tasks it typically handles, one per entry. */
  tasks: string[];
  /** A paragraph of background; "" for none. */
  backstory: string;
  /** The language to answer in, as a code such as "zh", "en", "fr-CA". */
  language: string;
  /** The tone to keep, e.g. "concise", "friendly". */
  tone: string;
}

/** Options of {@link Profile}: every field of {@link ProfileData}, all optional. */
export type ProfileOptions = Partial<ProfileData>;

/** The values a {@link Profile} takes for the options it is not given. */
export const DEFAULT_PROFILE: Readonly<ProfileData> = Object.freeze({
  name: "BaseAgent",
  role: "general assistant",
  goals: [],
  tasks: [],
  backstory: "",
  language: "zh",
  tone: "concise",
});

const KEYS = ["name", "role", "goals", "tasks", "backstory", "language", "tone"] as const;
const NON_EMPTY = new Set<string>(["name", "role", "language", "tone"]);

function checkField(key: (typeof KEYS)[number], value: unknown): void {
  if (key === "goals" || key === "tasks") {
    if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
      throw new InvalidArgumentError({ argument: key, message: "expected an array of strings" });
    }
    return;
  }
  if (typeof value !== "string" || (NON_EMPTY.has(key) && value.trim() === "")) {
    const expected = NON_EMPTY.has(key) ? "a non-empty string" : "a string";
    throw new InvalidArgumentError({ argument: key, message: `expected ${expected}, got ${typeof value}` });
  }
}

/** "a general assistant", "an engineer"; a role that already starts with an article is left as is. */
function withArticle(role: string): string {
  const trimmed = role.trim();
  if (/^(a|an|the)\s/i.test(trimmed)) return trimmed;
  return `${/^[aeiou]/i.test(trimmed) ? "an" : "a"} ${trimmed}`;
}

function bullets(items: readonly string[]): string {
  const lines = items.map((item) => item.trim()).filter((item) => item !== "");
  return lines.length === 0 ? "- (none specified)" : lines.map((item) => `- ${item}`).join("\n");
}

/**
 * Who an agent is: name, role, goals, typical tasks, backstory, answer language and tone. Immutable; render it
 * as a system prompt for any agent:
 *
 * @example
 * const profile = new Profile({ name: "Atlas", role: "travel planner", language: "en" });
 * const agent = new Agent({ model, system: profile }); // rendered with renderSystemPrompt()
 *
 * Throws {@link InvalidArgumentError} for a field of the wrong type (name, role, language and tone must be
 * non-empty strings, goals and tasks arrays of strings, backstory a string). `undefined` fields take the
 * defaults of {@link DEFAULT_PROFILE}.
 */
export class Profile {
  /** What the agent calls itself. Default "BaseAgent". */
  readonly name: string;
  /** What the agent is. Default "general assistant". */
  readonly role: string;
  /** What the agent tries to achieve (frozen). Default none. */
  readonly goals: readonly string[];
  /** The tasks it typically handles (frozen). Default none. */
  readonly tasks: readonly string[];
  /** Background paragraph. Default "". */
  readonly backstory: string;
  /** Language code to answer in. Default "zh". */
  readonly language: string;
  /** Tone to keep. Default "concise". */
  readonly tone: string;

  constructor(options: ProfileOptions = {}) {
    if (options === null || typeof options !== "object" || Array.isArray(options)) {
      throw new InvalidArgumentError({ argument: "options", message: "expected a profile options object" });
    }
    const given: Record<string, unknown> = {};
    for (const key of KEYS) {
      const value = options[key];
      if (value === undefined) continue;
      checkField(key, value);
      given[key] = value;
    }
    const data = { ...DEFAULT_PROFILE, ...given } as ProfileData;
    this.name = data.name;
    this.role = data.role;
    this.goals = Object.freeze([...data.goals]);
    this.tasks = Object.freeze([...data.tasks]);
    this.backstory = data.backstory;
    this.language = data.language;
    this.tone = data.tone;
    Object.freeze(this);
  }

  /**
   * Reads a profile from plain data (e.g. `JSON.parse` of {@link Profile.toJSON}'s output) or from a JSON
   * string. Unknown keys are ignored, missing ones take the defaults; a field of the wrong type, invalid JSON or
   * a value that is not an object throws {@link InvalidArgumentError}.
   */
  static fromJSON(json: unknown): Profile {
    let value = json;
    if (typeof value === "string") {
      try {
        value = JSON.parse(value);
      } catch (error) {
        throw new InvalidArgumentError({ argument: "json", message: "expected valid JSON", cause: error });
      }
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new InvalidArgumentError({ argument: "json", message: "expected a profile object" });
    }
    const source = value as Record<string, unknown>;
    const options: Record<string, unknown> = {};
    for (const key of KEYS) if (Object.hasOwn(source, key)) options[key] = source[key];
    return new Profile(options as ProfileOptions);
  }

  /**
   * The profile as a system prompt: who the agent is, the answer language and tone, the backstory (when set)
   * and bullet lists of goals and typical tasks ("- (none specified)" when empty).
   *
   * @example
   * new Profile().renderSystemPrompt();
   * // You are BaseAgent, a general assistant.
   * // Always answer in Chinese (zh).
   * // Keep a concise tone.
   * //
   * // Goals:
   * // - (none specified)
   * //
   * // Typical tasks:
   * // - (none specified)
   */
  renderSystemPrompt(): string {
    const language = languageName(this.language);
    const sections = [
      [
        `You are ${this.name.trim()}, ${withArticle(this.role)}.`,
        `Always answer in ${language === undefined ? this.language : `${language} (${this.language})`}.`,
        `Keep a ${this.tone.trim()} tone.`,
      ].join("\n"),
    ];
    if (this.backstory.trim() !== "") sections.push(this.backstory.trim());
    sections.push(`Goals:\n${bullets(this.goals)}`);
    sections.push(`Typical tasks:\n${bullets(this.tasks)}`);
    return sections.join("\n\n");
  }

  /**
   * A new profile with `overrides` applied; `undefined` values are ignored and this profile is unchanged.
   * Throws {@link InvalidArgumentError} like the constructor.
   */
  merged(overrides: ProfileOptions): Profile {
    if (overrides === null || typeof overrides !== "object" || Array.isArray(overrides)) {
      throw new InvalidArgumentError({ argument: "overrides", message: "expected a profile options object" });
    }
    const defined: Record<string, unknown> = {};
    for (const key of KEYS) if (overrides[key] !== undefined) defined[key] = overrides[key];
    return new Profile({ ...this.toJSON(), ...(defined as ProfileOptions) });
  }

  /** The profile as plain, JSON-serialisable data (fresh arrays). */
  toJSON(): ProfileData {
    return {
      name: this.name,
      role: this.role,
      goals: [...this.goals],
      tasks: [...this.tasks],
      backstory: this.backstory,
      language: this.language,
      tone: this.tone,
    };
  }
}
