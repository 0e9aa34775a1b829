/** Agent profiles: who an agent is, rendered as a system prompt for any agent. */
export { baseLanguage, languageName } from "./language-name.js";
export { DEFAULT_PROFILE, Profile, type ProfileData, type ProfileOptions } from "./profile.js";
export { isProfileLike, type SystemPromptSource, systemPromptOf } from "./system-prompt-of.js";
