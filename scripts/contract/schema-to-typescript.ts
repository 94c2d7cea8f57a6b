import type { SchemaDocument, SchemaNode } from './json-schema-node.ts';
import { refName, typesOf } from './json-schema-node.ts';

/**
 * Writes one TypeScript module of types (no runtime code) from `document`'s definitions: an
 * interface per object definition, a type alias per other one, `description`s as JSDoc. Inline
 * objects stay inline; `$ref`s become the definitions' names.
 */
export function schemaToTypescript(document: SchemaDocument, header: string): string {
  const blocks = Object.entries(document.$defs).map(([name, node]) => declaration(name, node));
  const names = Object.keys(document.$defs).map((name) => `  ${name}: ${name};`);
  const index = `/** Every type of the contract by its definition's name. */\nexport interface ContractTypes {\n${names.join('\n')}\n}`;
  return `${header}\n${[...blocks, index].join('\n\n')}\n`;
}

function declaration(name: string, node: SchemaNode): string {
  const doc = jsDoc(node.description, '');
  if (isObjectWithProperties(node) && node.$ref === undefined) {
    return `${doc}export interface ${name} ${objectBody(node, '')}`;
  }
  return `${doc}export type ${name} = ${typeOf(node, '')};`;
}

function typeOf(node: SchemaNode, indent: string): string {
  if (node.$ref !== undefined) return refName(node.$ref);
  if (node.anyOf !== undefined) return node.anyOf.map((branch) => typeOf(branch, indent)).join(' | ');
  if (node.const !== undefined) return JSON.stringify(node.const);
  if (node.enum !== undefined) return node.enum.map((value) => JSON.stringify(value)).join(' | ');
  const types = typesOf(node);
  if (types.length === 0) return 'unknown';
  return types.map((type) => singleType(type, node, indent)).join(' | ');
}

function singleType(type: string, node: SchemaNode, indent: string): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const item = node.items === undefined ? 'unknown' : typeOf(node.items, indent);
      return /^[A-Za-z0-9_]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
    }
    case 'object':
      if (isObjectWithProperties(node)) return objectBody(node, indent);
      return typeof node.additionalProperties === 'object'
        ? `Record<string, ${typeOf(node.additionalProperties, indent)}>`
        : 'Record<string, unknown>';
    default:
      throw new Error(`Unsupported JSON type ${type}.`);
  }
}

function objectBody(node: SchemaNode, indent: string): string {
  const inner = `${indent}  `;
  const required = new Set(node.required ?? []);
  const members = Object.entries(node.properties ?? {}).map(([key, property]) => {
    const mark = required.has(key) ? '' : '?';
    return `${jsDoc(property.description, inner)}${inner}${key}${mark}: ${typeOf(property, inner)};`;
  });
  return `{\n${members.join('\n')}\n${indent}}`;
}

function isObjectWithProperties(node: SchemaNode): boolean {
  return typesOf(node).includes('object') && node.properties !== undefined;
}

function jsDoc(description: string | undefined, indent: string): string {
  if (description === undefined) return '';
  const lines = wrap(description, 100 - indent.length - 3);
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} * ${line}`).join('\n')}\n${indent} */\n`;
}

/** Splits `text` into lines of at most `width` characters at spaces (a longer word keeps its own line). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
