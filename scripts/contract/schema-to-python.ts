import type { SchemaDocument, SchemaNode } from './json-schema-node.ts';
import { nestedName, refName, typesOf } from './json-schema-node.ts';
import { wrap } from './schema-to-typescript.ts';

const PYTHON_KEYWORDS = new Set(['class', 'def', 'from', 'global', 'import', 'in', 'is', 'lambda', 'pass', 'return']);

/**
 * Writes one Python module from `document`'s definitions: a `TypedDict` per object (camelCase keys
 * as on the wire; an inline object becomes its own `ParentMember` class), a `Literal` alias plus a
 * `…_VALUES` tuple per enum, other aliases as they read. Python 3.10: optional keys come from a
 * `total=False` class over a class of the required ones.
 */
export function schemaToPython(document: SchemaDocument, header: string): string {
  const blocks: string[] = [];
  for (const [name, node] of Object.entries(document.$defs)) blocks.push(...definition(name, node));
  const imports = 'from typing import Any, Literal, TypedDict, Union';
  return `${header}\nfrom __future__ import annotations\n\n${imports}\n\n\n${blocks.join('\n\n\n')}\n`;
}

function definition(name: string, node: SchemaNode): string[] {
  if (isObjectWithProperties(node) && node.$ref === undefined) return typedDicts(name, node);
  const doc = node.description === undefined ? '' : `${comment(node.description)}\n`;
  // A bare reference names a class defined above; inside a generic it is quoted (defined below, maybe).
  const type = node.$ref === undefined ? typeOf(node, { name }, [], true) : refName(node.$ref);
  const alias = `${doc}${name} = ${type}`;
  if (node.enum === undefined) return [alias];
  const values = node.enum.map((value) => JSON.stringify(value)).join(', ');
  const tuple = node.enum.length === 1 ? `(${values},)` : `(${values})`;
  return [`${alias}\n${constantName(name)}: tuple[${name}, ...] = ${tuple}`];
}

function typedDicts(name: string, node: SchemaNode, member?: string): string[] {
  const nested: string[] = [];
  const required = new Set(node.required ?? []);
  const fields = Object.entries(node.properties ?? {}).map(([key, property]) => {
    if (PYTHON_KEYWORDS.has(key)) throw new Error(`${name}.${key} is a Python keyword.`);
    const type = typeOf(property, { name: nestedName(name, key), member: `${member ?? name}.${key}` }, nested, false);
    const doc = property.description === undefined ? '' : `\n    """${escapeDoc(property.description)}"""`;
    return { key, line: `    ${key}: ${type}${doc}`, isRequired: required.has(key) };
  });
  const fallback = member === undefined ? `The \`${name}\` body.` : `The \`${member}\` member.`;
  const docstring = `    """${escapeDoc(node.description ?? fallback)}"""`;
  const requiredFields = fields.filter((field) => field.isRequired).map((field) => field.line);
  const optionalFields = fields.filter((field) => !field.isRequired).map((field) => field.line);
  const classes: string[] = [];
  if (optionalFields.length === 0) {
    classes.push(`class ${name}(TypedDict):\n${docstring}\n\n${requiredFields.join('\n')}`);
  } else if (requiredFields.length === 0) {
    classes.push(`class ${name}(TypedDict, total=False):\n${docstring}\n\n${optionalFields.join('\n')}`);
  } else {
    classes.push(`class _${name}Required(TypedDict):\n${requiredFields.join('\n')}`);
    classes.push(`class ${name}(_${name}Required, total=False):\n${docstring}\n\n${optionalFields.join('\n')}`);
  }
  return [...nested, ...classes];
}

/**
 * The Python type of `node`; an inline object is added to `nested` as a class named `place.name`. At
 * the top level of an alias (`isAlias`) references are quoted, as the alias is evaluated at import;
 * `place.member` names the member in the docstring (`CreateRunRequest.input`).
 */
function typeOf(
  node: SchemaNode,
  place: { name: string; member?: string },
  nested: string[],
  isAlias: boolean,
): string {
  const { name, member } = place;
  const reference = (target: string): string => (isAlias ? JSON.stringify(target) : target);
  if (node.$ref !== undefined) return reference(refName(node.$ref));
  if (node.anyOf !== undefined) {
    return `Union[${node.anyOf.map((branch) => typeOf(branch, place, nested, isAlias)).join(', ')}]`;
  }
  if (node.const !== undefined) return `Literal[${JSON.stringify(node.const)}]`;
  if (node.enum !== undefined) return `Literal[${node.enum.map((value) => JSON.stringify(value)).join(', ')}]`;
  const types = typesOf(node);
  if (types.length === 0) return 'Any';
  const parts = types.map((type): string => {
    switch (type) {
      case 'string':
        return 'str';
      case 'number':
        return 'float';
      case 'integer':
        return 'int';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array':
        return `list[${node.items === undefined ? 'Any' : typeOf(node.items, place, nested, isAlias)}]`;
      case 'object':
        if (!isObjectWithProperties(node)) {
          const values = node.additionalProperties;
          return `dict[str, ${typeof values === 'object' ? typeOf(values, place, nested, isAlias) : 'Any'}]`;
        }
        nested.push(...typedDicts(name, node, member));
        return reference(name);
      default:
        throw new Error(`Unsupported JSON type ${type}.`);
    }
  });
  return parts.length === 1 ? (parts[0] as string) : `Union[${parts.join(', ')}]`;
}

function isObjectWithProperties(node: SchemaNode): boolean {
  return typesOf(node).includes('object') && node.properties !== undefined;
}

/** `ReasoningEffort` → `REASONING_EFFORT_VALUES`. */
function constantName(name: string): string {
  return `${name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}_VALUES`;
}

function comment(text: string): string {
  return wrap(text, 98)
    .map((line) => `#: ${line}`)
    .join('\n');
}

function escapeDoc(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"');
}
