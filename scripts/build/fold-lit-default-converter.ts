import type { Plugin } from 'vite';
import { createDependencyTransformPlugin } from './dependency-transform-plugin.ts';
import { listAstNodes, type AstNode } from './list-ast-nodes.ts';

/**
 * Lit's default attribute converter as minified in `@lit/reactive-element/reactive-element.js`:
 * `<name>={toAttribute(v,type){switch(type){case Boolean:…}return v},fromAttribute(v,type){…}}`.
 */
const DEFAULT_CONVERTER =
  /([\w$]+)=\{toAttribute\(([\w$]+),([\w$]+)\)\{switch\(\3\)\{case Boolean:\2=\2\?([\w$]+):null;break;case Object:case Array:\2=null==\2\?\2:JSON\.stringify\(\2\)\}return \2\},fromAttribute\(([\w$]+),([\w$]+)\)\{let ([\w$]+)=\5;switch\(\6\)\{case Boolean:\7=null!==\5;break;case Number:\7=null===\5\?null:Number\(\5\);break;case Object:case Array:try\{\7=JSON\.parse\(\5\)\}catch\([\w$]+\)\{\7=null\}\}return \7\}\}/g;

/** What the converter does for the only types our attributes have: `String` (nothing) and `Boolean` (presence). */
const STRING_CONVERTER =
  '$1={toAttribute:($2,$3)=>$3===Boolean?$2?$4:null:$2,fromAttribute:($2,$3)=>$3===Boolean?null!==$2:$2}';

/**
 * Folds Lit's default attribute converter to what it does for strings and booleans. Every
 * reactive property of ours that has an attribute is a string (`type: String`, or no type) or a
 * boolean, and none names its own converter, so the `Number`, `Object` and `Array` cases never run.
 * Fails the build if the converter is not found exactly once in Lit's file, or if a module of ours
 * declares a property with another type or a converter ({@link checkLitPropertyTypes}). The ESM
 * build keeps Lit whole.
 */
export function foldLitDefaultConverter(): Plugin {
  return createDependencyTransformPlugin({
    name: 'agent-chat:fold-lit-default-converter',
    dependencyFile: '/node_modules/@lit/reactive-element/reactive-element.js',
    userModule: '/src/ui/agent-chat/agent-chat.ts',
    definedIn: 'scripts/build/fold-lit-default-converter.ts',
    transform: foldDefaultConverter,
    checkUse: checkLitPropertyTypes,
  });
}

/** The fold of {@link foldLitDefaultConverter} on the text of `reactive-element.js`, or `{ error }` when the converter changed shape. */
export function foldDefaultConverter(code: string): string | { error: string } {
  const count = code.match(DEFAULT_CONVERTER)?.length ?? 0;
  if (count !== 1) {
    return { error: `@lit/reactive-element's reactive-element.js has ${count} copies of the default converter, not 1` };
  }
  return code.replace(DEFAULT_CONVERTER, STRING_CONVERTER);
}

/**
 * Why a module of ours breaks {@link foldLitDefaultConverter}'s assumption, or `null`: each
 * `static properties = { … }` entry may say `type: String` or `type: Boolean` and no other type, and no `converter`;
 * properties declared any other way (`static get properties`, `createProperty`) are refused.
 */
export function checkLitPropertyTypes(code: string, id: string): string | null {
  if (/\bstatic\s+get\s+properties\b|\bcreateProperty\s*\(/.test(code)) {
    return `${id} declares reactive properties other than with static properties = { … }`;
  }
  if (!/\bstatic\s+(?:override\s+)?properties\s*=/.test(code)) return null;
  const nodes = listAstNodes(id.replace(/^.*\//, ''), code);
  if (!Array.isArray(nodes)) return nodes.error;
  for (const { node } of nodes) {
    if (node.type !== 'PropertyDefinition' || !node.static || (node.key as AstNode).name !== 'properties') continue;
    const declarations = node.value as AstNode;
    if (declarations.type !== 'ObjectExpression') return `${id}'s static properties is not an object literal`;
    for (const property of declarations.properties as AstNode[]) {
      const options = property.value as AstNode | undefined;
      if (options?.type !== 'ObjectExpression')
        return `${id} declares a property whose options are not an object literal`;
      for (const option of options.properties as AstNode[]) {
        const key = (option.key as AstNode | undefined)?.name;
        const value = option.value as AstNode | undefined;
        if (key === 'converter') return `${id} gives a property its own converter`;
        if (key === 'type' && (value?.type !== 'Identifier' || !['String', 'Boolean'].includes(value.name as string))) {
          return `${id} declares a property of a type other than String or Boolean`;
        }
        if (option.type !== 'Property' || key === undefined)
          return `${id} declares property options Lit's fold cannot read`;
      }
    }
  }
  return null;
}
