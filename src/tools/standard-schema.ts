// The Standard Schema v1 interface (https://standardschema.dev, MIT), declared here as its authors intend
// libraries to do, so that agentloop's public types need no schema library installed: zod 4, valibot,
// arktype and others implement it, and a tool's argument type is inferred through it.

/** One validation issue of a {@link StandardSchemaV1}. */
export interface StandardSchemaIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** The result of {@link StandardSchemaV1}'s `validate`: the parsed value, or issues. */
export type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardSchemaIssue> };

/** A schema that implements Standard Schema v1 (zod 4, valibot, arktype, ...). */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

/** The type a {@link StandardSchemaV1} parses to (`z.output<S>` for a zod schema). */
export type InferSchemaOutput<Schema extends StandardSchemaV1> = NonNullable<
  Schema["~standard"]["types"]
>["output"];

/** A zod 4 schema (classic or mini), as far as agentloop needs to recognise one. */
export type ZodSchemaLike = StandardSchemaV1 & { readonly _zod: object };
