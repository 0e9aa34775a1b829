export { parseCritique } from "./parse-critique.js";
export {
  type ReflectionResult,
  type ReflectionRound,
  type RunWithReflectionOptions,
  runWithReflection,
} from "./run-with-reflection.js";
