/**
 * Built-in tools (`agentloop/tools`), opt-in: import only what you give your agent. Kept out of the core entry
 * so that `import "agentloop"` loads no tool dependencies (the calculator's expression parser, `jsep`).
 */
export { calculator } from "./calculator.js";
export { evaluateExpression, MAX_EXPRESSION_LENGTH } from "./evaluate-expression.js";
