import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CustomElementDeclaration, CustomElementField, Package } from 'custom-elements-manifest/schema';
import { describe, expect, test } from 'vitest';
import { createCustomElementsManifest, toShippedManifest } from './create-custom-elements-manifest.ts';

const rootDir = fileURLToPath(new URL('../..', import.meta.url));

/** The one custom element of a manifest; fails the test when there is not exactly one. */
function onlyElement(manifest: Package): CustomElementDeclaration {
  const elements = manifest.modules.flatMap((module) =>
    (module.declarations ?? []).filter((declaration) => 'customElement' in declaration && declaration.customElement),
  );
  expect(elements).toHaveLength(1);
  return elements[0] as CustomElementDeclaration;
}

/** Every `part="…"` name in the widget's templates (the launcher's and the conversations panel's parts belong to their own hosts). */
async function renderedParts(): Promise<string[]> {
  const uiDir = join(rootDir, 'src/ui');
  const entries = await readdir(uiDir, { recursive: true, withFileTypes: true });
  const names = new Set<string>();
  for (const entry of entries) {
    const path = relative(uiDir, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (
      !entry.isFile() ||
      !path.endsWith('.ts') ||
      path.endsWith('.test.ts') ||
      path.startsWith('launcher/') ||
      path.startsWith('conversations/')
    )
      continue;
    const code = await readFile(join(uiDir, path), 'utf8');
    for (const match of code.matchAll(/\bpart="([^"]+)"/g)) {
      for (const name of (match[1] ?? '').split(/\s+/)) names.add(name);
    }
  }
  return [...names].sort();
}

describe('createCustomElementsManifest', () => {
  const manifest = createCustomElementsManifest(rootDir);

  test('puts <agent-chat> in the shipped index module and its definition in the shipped define module', async () => {
    const result = await manifest;
    expect(result.modules.map((module) => [module.path, module.exports])).toEqual([
      [
        'dist/esm/index.js',
        [
          {
            kind: 'js',
            name: 'AgentChatElement',
            declaration: { name: 'AgentChatElement', module: 'dist/esm/index.js' },
          },
        ],
      ],
      [
        'dist/esm/define.js',
        [
          {
            kind: 'custom-element-definition',
            name: 'agent-chat',
            declaration: { name: 'AgentChatElement', module: 'dist/esm/index.js' },
          },
        ],
      ],
    ]);
    expect(onlyElement(result).tagName).toBe('agent-chat');
  });

  test('lists the attributes with their values and the public properties only', async () => {
    const element = onlyElement(await manifest);
    expect(element.attributes?.map((attribute) => [attribute.name, attribute.type?.text, attribute.default])).toEqual([
      ['locale', 'string', undefined],
      ['theme', "'light' | 'dark' | 'auto'", "'auto'"],
    ]);
    expect(element.members?.map((member) => member.name)).toEqual([
      'client',
      'locale',
      'theme',
      'strings',
      'collapseReasoning',
      'headerTitle',
      'avatarUrl',
      'greeting',
      'suggestions',
      'onClose',
      'selectAttachments',
      'getReferences',
      'renderers',
      'conversations',
      'getContext',
      'context',
      'effortPicker',
      'feedback',
      'showErrorReference',
      'attachments',
      'uploadAttachment',
      'send',
      'newConversation',
    ]);
  });

  test('lists every event of AgentChatEventDetails with its detail type', async () => {
    const element = onlyElement(await manifest);
    expect(element.events?.map((event) => [event.name, event.type.text])).toEqual([
      ['agent-chat-send', 'CustomEvent<AgentChatSendDetail>'],
      ['agent-chat-approve', 'CustomEvent<AgentChatApproveDetail>'],
      ['agent-chat-error', 'CustomEvent<AgentChatErrorDetail>'],
      ['agent-chat-run-start', 'CustomEvent<AgentChatRunStartDetail>'],
      ['agent-chat-run-finish', 'CustomEvent<AgentChatRunFinishDetail>'],
      ['agent-chat-message', 'CustomEvent<AgentChatMessageDetail>'],
      ['agent-chat-tool-start', 'CustomEvent<AgentChatToolDetail>'],
      ['agent-chat-tool-end', 'CustomEvent<AgentChatToolDetail>'],
      ['agent-chat-approval-request', 'CustomEvent<AgentChatApprovalDetail>'],
      ['agent-chat-approval-resolve', 'CustomEvent<AgentChatApprovalDetail>'],
      ['agent-chat-session', 'CustomEvent<AgentChatSessionDetail>'],
      ['agent-chat-launcher-open', 'CustomEvent<AgentChatLauncherDetail>'],
      ['agent-chat-launcher-close', 'CustomEvent<AgentChatLauncherDetail>'],
    ]);
    const source = await readFile(join(rootDir, 'src/ui/agent-chat/agent-chat-events.ts'), 'utf8');
    const declared = [...source.matchAll(/^ {2}'(agent-chat-[a-z-]+)': /gm)].map((match) => match[1]);
    expect(element.events?.map((event) => event.name)).toEqual(declared);
  });

  test('lists exactly the CSS parts the templates render, each described', async () => {
    const element = onlyElement(await manifest);
    expect(element.cssParts?.map((part) => part.name).sort()).toEqual(await renderedParts());
    expect(element.cssParts?.filter((part) => !part.description)).toEqual([]);
  });

  test('lists exactly the custom properties host.styles.ts declares, in its order', async () => {
    const styles = await readFile(join(rootDir, 'src/ui/styles/host.styles.ts'), 'utf8');
    const declared = [...styles.matchAll(/(--agent-chat-[a-z-]+):/g)].map((match) => match[1]);
    const element = onlyElement(await manifest);
    expect(element.cssProperties?.map((property) => property.name)).toEqual(declared);
    expect(declared).toHaveLength(32);
  });

  test('lists no slots, since the element renders none', async () => {
    expect(onlyElement(await manifest).slots).toBe(undefined);
  });
});

describe('toShippedManifest', () => {
  test('keeps shipped modules only, with public members, their attributes and spelled-out theme types', () => {
    const theme: CustomElementField = {
      kind: 'field',
      name: 'theme',
      type: { text: 'AgentChatTheme' },
      attribute: 'theme',
    };
    const isOpen: CustomElementField = { kind: 'field', name: 'isOpen', privacy: 'protected', attribute: 'isOpen' };
    const source: Package = {
      schemaVersion: '1.0.0',
      modules: [
        {
          kind: 'javascript-module',
          path: 'src/widget.ts',
          declarations: [
            {
              kind: 'class',
              name: 'Widget',
              customElement: true,
              tagName: 'x-widget',
              members: [
                theme,
                isOpen,
                { kind: 'field', name: '#state', privacy: 'private' },
                { kind: 'field', name: 'styles', static: true },
              ],
              attributes: [
                { name: 'theme', type: { text: 'AgentChatTheme' }, fieldName: 'theme' },
                { name: 'isOpen', fieldName: 'isOpen' },
              ],
            },
          ],
          exports: [{ kind: 'js', name: 'Widget', declaration: { name: 'Widget', module: '/src/widget.ts' } }],
        },
        { kind: 'javascript-module', path: 'src/internal.ts', declarations: [], exports: [] },
      ],
    };
    expect(toShippedManifest(source, new Map([['src/widget.ts', 'dist/widget.js']]))).toEqual({
      schemaVersion: '1.0.0',
      modules: [
        {
          kind: 'javascript-module',
          path: 'dist/widget.js',
          declarations: [
            {
              kind: 'class',
              name: 'Widget',
              customElement: true,
              tagName: 'x-widget',
              members: [{ ...theme, type: { text: "'light' | 'dark' | 'auto'" } }],
              attributes: [{ name: 'theme', type: { text: "'light' | 'dark' | 'auto'" }, fieldName: 'theme' }],
            },
          ],
          exports: [{ kind: 'js', name: 'Widget', declaration: { name: 'Widget', module: 'dist/widget.js' } }],
        },
      ],
    });
  });
});
