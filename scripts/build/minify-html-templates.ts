import ts from 'typescript';
import type { Plugin } from 'vite';

/** Elements whose content keeps its whitespace as written: a template must never break a line inside one. */
const PRESERVING_CONTENT = /<(pre|textarea)\b[^>]*>[^<]*\n/;

/**
 * Drops the indentation after each line break inside our own Lit `html` templates (the static
 * parts, never the expressions), which the JavaScript minifier leaves as written. A line break
 * followed by spaces and a line break alone are the same whitespace to HTML outside elements that
 * preserve it, and the widget's templates never break a line inside `<pre>` or `<textarea>`
 * content (the build fails if one does). Styles with `white-space: pre-wrap` only ever hold an
 * expression, never template text.
 */
export function minifyHtmlTemplates(): Plugin {
  return {
    name: 'agent-chat:minify-html-templates',
    enforce: 'pre',
    transform(code, id) {
      if (!/\/src\/.*\.ts$/.test(id) || !code.includes('html`')) return null;
      const next = collapseTemplateIndentation(code, id);
      return next === code ? null : { code: next, map: null };
    },
  };
}

/**
 * The source `code` (TypeScript, from file `fileName`) with the indentation after each line break
 * removed from the literal parts of every template tagged `html`. Throws when a template breaks a
 * line inside `<pre>` or `<textarea>` content.
 */
export function collapseTemplateIndentation(code: string, fileName: string): string {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const ranges: Array<{ start: number; end: number }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === 'html') {
      const template = node.template;
      const literals = ts.isNoSubstitutionTemplateLiteral(template)
        ? [template]
        : [template.head, ...template.templateSpans.map((span) => span.literal)];
      const text = literals.map((literal) => literal.text).join('${}');
      if (PRESERVING_CONTENT.test(text)) {
        throw new Error(`${fileName}: an html template breaks a line inside <pre> or <textarea> content`);
      }
      for (const literal of literals) ranges.push({ start: literal.getStart(source), end: literal.getEnd() });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  let result = '';
  let at = 0;
  for (const { start, end } of ranges.sort((a, b) => a.start - b.start)) {
    result += code.slice(at, start) + code.slice(start, end).replace(/\n[ \t]+/g, '\n');
    at = end;
  }
  return result + code.slice(at);
}
