// What the installed package's exports map resolves, and what it refuses. Prints one JSON line.
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = realpathSync(fileURLToPath(new URL('./node_modules/agent-chat/', import.meta.url)));
const resolved = {};
// What `require` resolves (the `default` condition): bundlers' CommonJS resolution (webpack's,
// Next's check of its server externals) takes this path, so it must name the same files.
const resolvedByRequire = {};
const require = createRequire(import.meta.url);
for (const specifier of [
  'agent-chat',
  'agent-chat/define',
  'agent-chat/core',
  'agent-chat/server',
  'agent-chat/react',
  'agent-chat/locales/zh-cn',
  'agent-chat/tools',
  'agent-chat/highlight',
  'agent-chat/agent-chat.js',
  'agent-chat/agent-chat.zh-CN.js',
  'agent-chat/agent-chat.launcher.js',
  'agent-chat/agent-chat.conversations.js',
  'agent-chat/agent-chat.tool-cards.js',
  'agent-chat/agent-chat.widgets.js',
  'agent-chat/agent-chat.turn-actions.js',
  'agent-chat/agent-chat.composer-extras.js',
  'agent-chat/agent-chat.highlight.js',
  'agent-chat/agent-chat-tools.js',
  'agent-chat/manifest.json',
  'agent-chat/custom-elements.json',
  'agent-chat/package.json',
]) {
  resolved[specifier] = relative(packageDir, fileURLToPath(import.meta.resolve(specifier)));
  try {
    resolvedByRequire[specifier] = relative(packageDir, require.resolve(specifier));
  } catch (error) {
    resolvedByRequire[specifier] = error.code;
  }
}

const refused = {};
for (const specifier of [
  'agent-chat/dist/esm/core.js',
  'agent-chat/dist/esm/index.js',
  'agent-chat/dist/agent-chat.js',
  'agent-chat/dist/types/index.d.ts',
  'agent-chat/src/index.ts',
  'agent-chat/src/core/index.ts',
]) {
  try {
    await import(specifier);
    refused[specifier] = 'imported';
  } catch (error) {
    refused[specifier] = error.code;
  }
}

console.log(JSON.stringify({ packageDir, resolved, resolvedByRequire, refused }));
