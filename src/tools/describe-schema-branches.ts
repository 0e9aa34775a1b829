import type { OutputUnit } from "@cfworker/json-schema";
import type { ToolArgumentIssue } from "../errors/tool-arguments-error.js";
import { describeType, describeValue } from "./describe-received.js";
import {
  type DescribeSchemaErrorsOptions,
  isObject,
  issue,
  literal,
  type Node,
  type Translation,
  typeText,
  type ValueAt,
} from "./schema-error-parts.js";

/** The JSON types a branch of `anyOf`/`oneOf` accepts, or undefined when it does not say. */
function branchTypes(branch: Node): string[] | undefined {
  if (branch.type !== undefined)
    return (Array.isArray(branch.type) ? branch.type : [branch.type]).map(String);
  if (Object.hasOwn(branch, "const")) return [describeType(branch.const)];
  if (Array.isArray(branch.enum)) return branch.enum.map(describeType);
  if (branch.properties !== undefined || branch.required !== undefined) return ["object"];
  if (branch.items !== undefined || branch.prefixItems !== undefined) return ["array"];
  return undefined;
}

function accepts(types: readonly string[] | undefined, value: unknown): boolean {
  if (types === undefined) return true;
  const actual = describeType(value);
  return types.some((type) => type === actual || (type === "integer" && Number.isInteger(value)));
}

function branchText(branch: Node): string {
  if (Object.hasOwn(branch, "const")) return literal(branch.const);
  if (Array.isArray(branch.enum)) return branch.enum.map(literal).join(" or ");
  if (branch.type !== undefined) return typeText(branch.type);
  return "a matching value";
}

/** The `const` (or one-value `enum`) of a branch's property, if it has one. */
function constOf(branch: Node | undefined, name: string): { value: unknown } | undefined {
  const property = isObject(branch?.properties) ? branch.properties[name] : undefined;
  if (!isObject(property)) return undefined;
  if (Object.hasOwn(property, "const")) return { value: property.const };
  if (Array.isArray(property.enum) && property.enum.length === 1) return { value: property.enum[0] };
  return undefined;
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * A discriminated union (every branch fixes the same property to a constant, like `kind`): the branch the
 * value's tag names (its index, alone), or the issue about the tag itself when it names none.
 */
function byDiscriminator(
  branches: ReadonlyArray<Node | undefined>,
  at: ValueAt,
): number[] | ToolArgumentIssue | undefined {
  const first = branches[0];
  if (branches.length < 2 || !isObject(at.value) || !isObject(first?.properties)) return undefined;
  const name = Object.keys(first.properties).find((key) =>
    branches.every((branch) => constOf(branch, key) !== undefined),
  );
  if (name === undefined) return undefined;
  const tags = branches.map((branch) => constOf(branch, name)?.value);
  const given = Object.hasOwn(at.value, name) ? at.value[name] : undefined;
  const index = given === undefined ? -1 : tags.findIndex((tag) => sameJson(tag, given));
  if (index >= 0) return [index];
  const expected = `one of ${[...new Set(tags.map(literal))].join(", ")}`;
  return issue([...at.path, name], expected, given === undefined ? "nothing" : describeValue(given));
}

function resolveBranch(options: DescribeSchemaErrorsOptions, branch: unknown): Node | undefined {
  if (!isObject(branch)) return undefined;
  const target = branch.__absolute_ref__;
  const resolved = typeof target === "string" ? options.lookup[target] : undefined;
  return isObject(resolved) ? { ...resolved, ...branch } : branch;
}

/** `anyOf` / `oneOf`: the branch meant for the value explains itself; otherwise one issue lists the branches. */
export function describeBranches(
  options: DescribeSchemaErrorsOptions,
  unit: OutputUnit,
  node: Node | undefined,
  at: ValueAt,
): Translation {
  const skipAll = { skip: [`${unit.keywordLocation}/`] };
  const branches = node?.[unit.keyword];
  const matches = /\((\d+) matches\)/.exec(unit.error);
  if (unit.keyword === "oneOf" && matches !== null && Number(matches[1]) > 1) {
    return {
      issues: [
        issue(at.path, "a value matching exactly one alternative", `a value matching ${matches[1]} of them`),
      ],
      ...skipAll,
    };
  }
  if (!Array.isArray(branches))
    return { issues: [issue(at.path, "a matching value", describeValue(at.value))], ...skipAll };
  const resolved = branches.map((branch) => resolveBranch(options, branch));
  const tagged = byDiscriminator(resolved, at);
  if (tagged !== undefined && !Array.isArray(tagged)) return { issues: [tagged], ...skipAll };
  const candidates =
    tagged ??
    resolved.flatMap((branch, index) =>
      branch !== undefined && accepts(branchTypes(branch), at.value) ? [index] : [],
    );
  if (branches.length > 1 && candidates.length === 1) {
    const skip = branches.flatMap((_, index) =>
      index === candidates[0] ? [] : [`${unit.keywordLocation}/${index}/`],
    );
    return { issues: [], skip };
  }
  if (candidates.length > 1) {
    const expected = `a value matching ${unit.keyword === "oneOf" ? "exactly" : "at least"} one of ${branches.length} alternatives`;
    return { issues: [issue(at.path, expected, describeValue(at.value))], ...skipAll };
  }
  const texts = [
    ...new Set(resolved.map((branch) => (branch === undefined ? "a matching value" : branchText(branch)))),
  ];
  return { issues: [issue(at.path, texts.join(" or "), describeType(at.value))], ...skipAll };
}
