import jsep from "jsep";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";

/** Longest expression {@link evaluateExpression} accepts, in characters. */
export const MAX_EXPRESSION_LENGTH = 1000;

type MathFunction = { min: number; max: number; apply: (...args: number[]) => number };

const CONSTANTS: ReadonlyMap<string, number> = new Map([
  ["pi", Math.PI],
  ["e", Math.E],
]);

const FUNCTIONS: ReadonlyMap<string, MathFunction> = new Map<string, MathFunction>([
  ["sqrt", { min: 1, max: 1, apply: Math.sqrt }],
  ["abs", { min: 1, max: 1, apply: Math.abs }],
  ["round", { min: 1, max: 1, apply: Math.round }],
  ["floor", { min: 1, max: 1, apply: Math.floor }],
  ["ceil", { min: 1, max: 1, apply: Math.ceil }],
  ["min", { min: 1, max: Number.POSITIVE_INFINITY, apply: Math.min }],
  ["max", { min: 1, max: Number.POSITIVE_INFINITY, apply: Math.max }],
  ["pow", { min: 2, max: 2, apply: Math.pow }],
  ["log", { min: 1, max: 1, apply: Math.log }],
  ["exp", { min: 1, max: 1, apply: Math.exp }],
  ["sin", { min: 1, max: 1, apply: Math.sin }],
  ["cos", { min: 1, max: 1, apply: Math.cos }],
  ["tan", { min: 1, max: 1, apply: Math.tan }],
]);

const BINARY: ReadonlyMap<string, (a: number, b: number) => number> = new Map([
  ["+", (a: number, b: number) => a + b],
  ["-", (a: number, b: number) => a - b],
  ["*", (a: number, b: number) => a * b],
  ["/", (a: number, b: number) => a / b],
  ["%", (a: number, b: number) => a % b],
  ["**", (a: number, b: number) => a ** b],
  ["^", (a: number, b: number) => a ** b],
]);

const UNARY: ReadonlyMap<string, (a: number) => number> = new Map([
  ["-", (a: number) => -a],
  ["+", (a: number) => a],
]);

const ALLOWED_NAMES = [...CONSTANTS.keys(), ...FUNCTIONS.keys()].join(", ");

function refuse(message: string): never {
  throw new InvalidArgumentError({ argument: "expression", message });
}

/**
 * Parses with `**` and `^` as right-associative power operators binding tighter than `*`. jsep's operator
 * table is global, so the two entries are set for this parse only and restored afterwards (parsing is
 * synchronous): other users of jsep keep `^` as XOR.
 */
function parse(expression: string): jsep.Expression {
  const precedence = (jsep.binary_ops["*"] ?? 10) + 1;
  const saved = ["**", "^"].map((op) => ({
    op,
    precedence: jsep.binary_ops[op],
    right: jsep.right_associative.has(op),
  }));
  for (const { op } of saved) jsep.addBinaryOp(op, precedence, true);
  try {
    return jsep(expression);
  } catch (error) {
    return refuse(
      `could not parse ${JSON.stringify(expression)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    for (const { op, precedence: previous, right } of saved) {
      if (previous === undefined) jsep.removeBinaryOp(op);
      else jsep.addBinaryOp(op, previous, right);
    }
  }
}

function nameOf(node: jsep.Expression): string | undefined {
  return node.type === "Identifier" ? (node as jsep.Identifier).name : undefined;
}

function evaluateMember(node: jsep.MemberExpression): never {
  const object = nameOf(node.object);
  const property = node.computed ? undefined : nameOf(node.property);
  if (
    object === "Math" &&
    property !== undefined &&
    (FUNCTIONS.has(property) || CONSTANTS.has(property.toLowerCase()))
  ) {
    return refuse(
      `member access is not allowed: write ${property.toLowerCase()} instead of Math.${property}`,
    );
  }
  return refuse("member access (a.b, a[b]) is not allowed");
}

function evaluateCall(node: jsep.CallExpression): number {
  if (node.callee.type === "MemberExpression") return evaluateMember(node.callee as jsep.MemberExpression);
  const name = nameOf(node.callee);
  const fn = name === undefined ? undefined : FUNCTIONS.get(name);
  if (name === undefined || fn === undefined) {
    return refuse(`only these functions can be called: ${[...FUNCTIONS.keys()].join(", ")}`);
  }
  const count = node.arguments.length;
  if (count < fn.min || count > fn.max) {
    const wanted = fn.min === fn.max ? `${fn.min}` : `at least ${fn.min}`;
    return refuse(
      `${name}() takes ${wanted} argument${fn.min === 1 && fn.max === 1 ? "" : "s"}, got ${count}`,
    );
  }
  return fn.apply(...node.arguments.map(evaluateNode));
}

function evaluateNode(node: jsep.Expression): number {
  switch (node.type) {
    case "Literal": {
      const { value, raw } = node as jsep.Literal;
      if (typeof value !== "number") return refuse(`only numbers are allowed, not ${raw}`);
      return value;
    }
    case "Identifier": {
      const name = (node as jsep.Identifier).name;
      const constant = CONSTANTS.get(name);
      if (constant !== undefined) return constant;
      if (FUNCTIONS.has(name)) return refuse(`${name} is a function: call it, e.g. ${name}(x)`);
      return refuse(`unknown name ${JSON.stringify(name)} (allowed: ${ALLOWED_NAMES})`);
    }
    case "UnaryExpression": {
      const { operator, argument } = node as jsep.UnaryExpression;
      const apply = UNARY.get(operator);
      if (apply === undefined) return refuse(`operator ${JSON.stringify(operator)} is not allowed`);
      return apply(evaluateNode(argument));
    }
    case "BinaryExpression": {
      const { operator, left, right } = node as jsep.BinaryExpression;
      const apply = BINARY.get(operator);
      if (apply === undefined) return refuse(`operator ${JSON.stringify(operator)} is not allowed`);
      return apply(evaluateNode(left), evaluateNode(right));
    }
    case "CallExpression":
      return evaluateCall(node as jsep.CallExpression);
    case "MemberExpression":
      return evaluateMember(node as jsep.MemberExpression);
    case "ThisExpression":
      return refuse("`this` is not allowed");
    case "ArrayExpression":
      return refuse("arrays are not allowed");
    case "Compound":
    case "SequenceExpression":
      return refuse("write a single expression");
    default:
      return refuse(`${node.type} is not allowed`);
  }
}

/**
 * Evaluates an arithmetic expression without `eval`: it is parsed with jsep and the syntax tree is walked
 * with a whitelist. Allowed: numbers, `+ - * / %`, `**` and `^` (power, right-associative), unary `+`/`-`
 * (which bind tighter than power, as in spreadsheets: `-2^2` is 4), parentheses, the constants `pi` and `e`,
 * and the functions `sqrt abs round floor ceil min max pow log exp sin cos tan` (`log` is natural, angles are
 * in radians). Anything else (other names, member access, strings, arrays, `this`) is refused, as are inputs
 * longer than 1000 characters and non-finite results: all with an {@link InvalidArgumentError}.
 */
export function evaluateExpression(expression: string): number {
  if (typeof expression !== "string") return refuse("expected a string");
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    return refuse(`longer than ${MAX_EXPRESSION_LENGTH} characters (${expression.length})`);
  }
  if (expression.trim() === "") return refuse("empty expression");
  const result = evaluateNode(parse(expression));
  if (!Number.isFinite(result)) return refuse(`the result is not a finite number (${result})`);
  return result;
}
