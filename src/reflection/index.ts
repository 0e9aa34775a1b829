export { parseCritique } from "./parse-critique.js";
export {
  type ReflectionOptions,
  type ReflectionResult,
  type ReflectionRound,
  runWithReflection,
} from "./run-with-reflection.js";
