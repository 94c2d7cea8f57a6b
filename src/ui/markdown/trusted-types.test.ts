import { expect, test } from 'vitest';
import { renderMarkdown } from './render-markdown.ts';
import { allowScriptUrl, getTrustedTypesPolicy, TRUSTED_TYPES_POLICY_NAME } from '../../trusted-types-policy.ts';

test('renders under enforced Trusted Types with only the agent-chat policy allowed', () => {
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = `require-trusted-types-for 'script'; trusted-types ${TRUSTED_TYPES_POLICY_NAME}`;
  document.head.append(meta);
  const probe = document.createElement('div');
  expect(() => {
    probe.innerHTML = '<b>x</b>';
  }).toThrow(TypeError);

  const host = document.createElement('div');
  document.body.append(host);
  host.append(
    renderMarkdown('**bold** [link](https://example.com) [ref](/f&ouml;&ouml;) <img src=x onerror=alert(1)>'),
  );
  expect(host.innerHTML).toBe(
    '<p><strong>bold</strong> <a href="https://example.com/" title="https://example.com/" target="_blank" rel="noopener noreferrer">link</a><span class="ac-host">example.com</span> <a href="/föö" title="/föö" target="_blank" rel="noopener noreferrer">ref</a> &lt;img src=x onerror=alert(1)&gt;</p>\n',
  );
  host.remove();
});

test('the agent-chat policy passes only the script URLs allowed for the sibling files', () => {
  const policy = getTrustedTypesPolicy();
  if (!policy) throw new Error('no agent-chat policy under Trusted Types');
  const sibling = new URL('/static/agent-chat.launcher.js', location.href).href;
  expect(() => policy.createScriptURL(sibling)).toThrow(TypeError);
  allowScriptUrl(sibling);
  expect(String(policy.createScriptURL(sibling))).toBe(sibling);
  expect(() => policy.createScriptURL(new URL('/static/other.js', location.href).href)).toThrow(TypeError);
});
