import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { create } from '@custom-elements-manifest/analyzer/src/create.js';
import { litPlugin } from '@custom-elements-manifest/analyzer/src/features/framework-plugins/lit/lit.js';
import type { ClassMember, Declaration, Export, Package } from 'custom-elements-manifest/schema';
import type TypeScript from 'typescript';
import { AGENT_CHAT_THEMES } from '../../src/ui/agent-chat/agent-chat-theme.ts';

/** The analyzer's own TypeScript: the syntax kinds it compares must be those of the trees it walks. */
const analyzerTs = createRequire(import.meta.resolve('@custom-elements-manifest/analyzer'))(
  'typescript',
) as typeof TypeScript;

/** Each analyzed source file and the shipped module a consumer imports its declarations from. */
export const CUSTOM_ELEMENT_SOURCES: ReadonlyMap<string, string> = new Map([
  ['src/ui/agent-chat/agent-chat.ts', 'dist/esm/index.js'],
  ['src/define.ts', 'dist/esm/define.js'],
]);

/** Type names the manifest spells out, so tools offer the values instead of an unknown alias. */
const SPELLED_OUT_TYPES: ReadonlyMap<string, string> = new Map([
  ['AgentChatTheme', AGENT_CHAT_THEMES.map((theme) => `'${theme}'`).join(' | ')],
]);

/**
 * Builds `custom-elements.json` for `<agent-chat>` with `@custom-elements-manifest/analyzer`: its
 * attributes, properties, events, CSS parts and custom properties from the element's code and
 * JSDoc, described as the package ships them (see {@link toShippedManifest}).
 */
export async function createCustomElementsManifest(rootDir: string): Promise<Package> {
  const modules = [];
  for (const path of CUSTOM_ELEMENT_SOURCES.keys()) {
    const code = await readFile(join(rootDir, path), 'utf8');
    modules.push(analyzerTs.createSourceFile(path, code, analyzerTs.ScriptTarget.ES2022, true));
  }
  return toShippedManifest(create({ modules, plugins: litPlugin() }), CUSTOM_ELEMENT_SOURCES);
}

/**
 * Rewrites the analyzer's manifest of source files into the package's public view: module paths
 * and references point at the shipped files in `shippedPaths` (a source without one is dropped),
 * members are the public instance API only (no private, protected, `#private` or static members,
 * no reactive state as attributes), and aliases in {@link SPELLED_OUT_TYPES} are spelled out.
 */
export function toShippedManifest(manifest: Package, shippedPaths: ReadonlyMap<string, string>): Package {
  const shipped = (path: string): string | undefined => shippedPaths.get(path.replace(/^\//, ''));
  const modules = manifest.modules.flatMap((module) => {
    const path = shipped(module.path);
    if (path === undefined) return [];
    return [
      {
        ...module,
        path,
        declarations: (module.declarations ?? []).map(toPublicDeclaration),
        exports: (module.exports ?? []).map((entry) => withShippedReference(entry, shipped)),
      },
    ];
  });
  return { ...manifest, modules };
}

function toPublicDeclaration(declaration: Declaration): Declaration {
  if (declaration.kind !== 'class') return declaration;
  const members = (declaration.members ?? [])
    .filter(isPublicInstanceMember)
    .map((member) => (member.kind === 'field' ? spellOutType(member) : member));
  const publicFields = new Set(members.map((member) => member.name));
  if (!('customElement' in declaration)) return { ...declaration, members };
  const attributes = (declaration.attributes ?? [])
    .filter((attribute) => attribute.fieldName === undefined || publicFields.has(attribute.fieldName))
    .map(spellOutType);
  return { ...declaration, members, attributes };
}

function isPublicInstanceMember(member: ClassMember): boolean {
  return (member.privacy ?? 'public') === 'public' && !member.static && !member.name.startsWith('#');
}

function spellOutType<Item extends { type?: { text: string } }>(item: Item): Item {
  const spelled = item.type === undefined ? undefined : SPELLED_OUT_TYPES.get(item.type.text);
  return spelled === undefined ? item : { ...item, type: { ...item.type, text: spelled } };
}

function withShippedReference(entry: Export, shipped: (path: string) => string | undefined): Export {
  const module = entry.declaration.module === undefined ? undefined : shipped(entry.declaration.module);
  return module === undefined ? entry : { ...entry, declaration: { ...entry.declaration, module } };
}
