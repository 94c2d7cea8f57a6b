/**
 * The subset of JSON Schema the contract uses (src/core/protocol/schema/), as the generators read
 * it: objects with `properties`/`required`, arrays, scalars, `enum`/`const`, `anyOf`, `$ref` to
 * `#/$defs/…`, and `description` for the generated comments.
 */
export interface SchemaNode {
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly required?: readonly string[];
  readonly items?: SchemaNode;
  readonly additionalProperties?: SchemaNode | boolean;
  readonly enum?: readonly (string | number | boolean | null)[];
  readonly const?: string | number | boolean | null;
  readonly anyOf?: readonly SchemaNode[];
  readonly $ref?: string;
  readonly [annotation: `x-${string}`]: unknown;
}

/** A whole schema document: named definitions only. */
export interface SchemaDocument {
  readonly $defs: Readonly<Record<string, SchemaNode>>;
}

/** The definition name a `#/$defs/Name` reference points to; throws on any other reference. */
export function refName(ref: string): string {
  const match = /^#\/\$defs\/([A-Za-z][A-Za-z0-9]*)$/.exec(ref);
  if (match === null) throw new Error(`Unsupported $ref ${ref}: only #/$defs/Name.`);
  return match[1] as string;
}

/** The JSON types a node allows (`type` as a list), empty when it names none. */
export function typesOf(node: SchemaNode): readonly string[] {
  if (node.type === undefined) return [];
  return typeof node.type === 'string' ? [node.type] : node.type;
}

/** `FooBar` + `input` → `FooBarInput`: the name of an inline object nested in a definition. */
export function nestedName(parent: string, property: string): string {
  return parent + property.charAt(0).toUpperCase() + property.slice(1);
}
