import { describe, expect, test } from 'vitest';
import { collapseTemplateIndentation } from './minify-html-templates.ts';

describe('collapseTemplateIndentation', () => {
  test('drops the indentation after line breaks in html templates, nested ones too, and nothing else', () => {
    const code = [
      'const label = `a\n    b`;',
      'const view = html`<ul>',
      '    ${items.map((item) => html`<li>',
      '        ${item.name}',
      '      </li>`)}',
      '    ${"  kept  \\n    as is"}',
      '  </ul>`;',
      'const sheet = css`:host {\n    color: red;\n  }`;',
    ].join('\n');
    expect(collapseTemplateIndentation(code, 'view.ts')).toBe(
      [
        'const label = `a\n    b`;',
        'const view = html`<ul>',
        '${items.map((item) => html`<li>',
        '${item.name}',
        '</li>`)}',
        '${"  kept  \\n    as is"}',
        '</ul>`;',
        'const sheet = css`:host {\n    color: red;\n  }`;',
      ].join('\n'),
    );
  });

  test('leaves a template without line breaks as it is', () => {
    const code = 'const view = html`<p class="a">  ${text}  </p>`;';
    expect(collapseTemplateIndentation(code, 'view.ts')).toBe(code);
  });

  test('refuses a template that breaks a line inside <pre> or <textarea> content', () => {
    expect(() => collapseTemplateIndentation('html`<pre class="x">${a}\n  ${b}</pre>`', 'pre.ts')).toThrow(
      'pre.ts: an html template breaks a line inside <pre> or <textarea> content',
    );
    expect(() => collapseTemplateIndentation('html`<textarea>\n  </textarea>`', 'area.ts')).toThrow(
      'area.ts: an html template breaks a line',
    );
  });
});
