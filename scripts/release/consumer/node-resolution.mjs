// What the installed package's exports map resolves, and what it refuses. Prints one JSON line.
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = realpathSync(fileURLToPath(new URL('./node_modules/agent-chat/', import.meta.url)));
const resolved = {};
// What `require` resolves (the `default` condition): bundlers' CommonJS resolution (webpack's,
// Next's check of its server externals) takes this path, so it must name the same files.
const resolvedByRequire = {};
const require = createRequire(import.meta.url);
// Every subpath the installed package's exports map names (the test expects each, and no other).
const exportsMap = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).exports;
for (const specifier of Object.keys(exportsMap).map((subpath) => `agent-chat${subpath.slice(1)}`)) {
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
