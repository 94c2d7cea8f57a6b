import type { Plugin } from 'vite';
import { createDependencyTransformPlugin } from './dependency-transform-plugin.ts';

/**
 * The parts of `@lit/reactive-element/reactive-element.js` (as Lit publishes it, minified) that
 * exist only for decorators: the `Symbol.metadata` and `litPropertyMetadata` globals, the class
 * initializers (`addInitializer`, copied to subclasses and run per instance) and the read of the
 * decorators' property metadata in `finalize()`. Each must be found exactly once.
 */
const DECORATOR_PARTS: readonly { name: string; pattern: RegExp }[] = [
  {
    name: 'the Symbol.metadata and litPropertyMetadata globals',
    pattern: /Symbol\.metadata\?\?=Symbol\("metadata"\),[\w$]+\.litPropertyMetadata\?\?=new WeakMap;/g,
  },
  {
    name: 'static addInitializer',
    pattern: /static addInitializer\(([\w$]+)\)\{this\._\$Ei\(\),\(this\.l\?\?=\[\]\)\.push\(\1\)\}/g,
  },
  { name: "the subclass's copy of the initializers", pattern: /,void 0!==([\w$]+)\.l&&\(this\.l=\[\.\.\.\1\.l\]\)/g },
  {
    name: "finalize()'s read of the decorators' metadata",
    pattern:
      /const ([\w$]+)=this\[Symbol\.metadata\];if\(null!==\1\)\{const ([\w$]+)=litPropertyMetadata\.get\(\1\);if\(void 0!==\2\)for\(const\[[\w$]+,[\w$]+\]of \2\)this\.elementProperties\.set\([\w$]+,[\w$]+\)\}/g,
  },
  {
    name: 'the run of the initializers per instance',
    pattern: /,this\.constructor\.l\?\.forEach\(([\w$]+)=>\1\(this\)\)/g,
  },
];

/** What in a module of ours would need Lit's decorator support. */
const DECORATOR_USE =
  /\baddInitializer\b|\blitPropertyMetadata\b|\bSymbol\.metadata\b|['"]lit\/decorators(\.js|\/)|^\s*@[a-z]\w*\(/m;

/**
 * Drops Lit's decorator support from the IIFE (about 100 B gzip). The widget declares its reactive
 * properties with `static properties`, never with decorators, so these parts never do anything
 * there, and without them the IIFE no longer sets the `Symbol.metadata` and `litPropertyMetadata`
 * globals on the host page. Fails the build if a part is not found exactly once in Lit's file, or
 * if a module of ours uses decorators, `addInitializer` or the metadata. The ESM build keeps Lit whole.
 */
export function dropLitDecoratorSupport(): Plugin {
  return createDependencyTransformPlugin({
    name: 'agent-chat:drop-lit-decorator-support',
    dependencyFile: '/node_modules/@lit/reactive-element/reactive-element.js',
    userModule: '/src/ui/agent-chat/agent-chat.ts',
    definedIn: 'scripts/build/drop-lit-decorator-support.ts',
    transform: cutLitDecoratorSupport,
    checkUse: (code) =>
      DECORATOR_USE.test(code) ? 'a module uses Lit decorators, addInitializer or the decorator metadata' : null,
  });
}

/** The cut of {@link dropLitDecoratorSupport} on the text of `reactive-element.js`, or `{ error }` naming the part that changed shape. */
export function cutLitDecoratorSupport(code: string): string | { error: string } {
  let cut = code;
  for (const part of DECORATOR_PARTS) {
    const count = cut.match(part.pattern)?.length ?? 0;
    if (count !== 1) {
      return { error: `@lit/reactive-element's reactive-element.js has ${count} copies of ${part.name}, not 1` };
    }
    cut = cut.replace(part.pattern, '');
  }
  return cut;
}
