import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { createCustomElementsManifest } from '../build/create-custom-elements-manifest.ts';

/**
 * docs/reference.md against the source: every mount option, handle member, event (with its detail
 * type), CSS custom property (with its default) and part, no more and no fewer, so the page cannot
 * drift from what ships.
 */
const rootDir = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string): Promise<string> => readFile(`${rootDir}${path}`, 'utf8');

/** The rows of the first table under `## heading` (or the `index`-th table there): their cells, backticks kept. */
async function tableRows(heading: string, index = 0): Promise<string[][]> {
  const doc = await read('docs/reference.md');
  const section = doc.split(/^## /m).find((part) => part.startsWith(`${heading}\n`));
  if (section === undefined) throw new Error(`docs/reference.md has no "## ${heading}"`);
  const tables = section.match(/(?:^\|.*\n?)+/gm) ?? [];
  const lines = (tables[index] ?? '').trim().split('\n').slice(2);
  return lines.map((line) =>
    line
      .replace(/\\\|/g, '\uE000')
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim().replace(/\uE000/g, '|')),
  );
}

/** The rows of the first table under `### heading` (a subsection), as {@link tableRows} gives them. */
async function subsectionRows(heading: string): Promise<string[][]> {
  const doc = await read('docs/reference.md');
  const section = doc.split(/^#{2,3} /m).find((part) => part.startsWith(`${heading}\n`));
  if (section === undefined) throw new Error(`docs/reference.md has no "### ${heading}"`);
  const table = (section.match(/(?:^\|.*\n?)+/m) ?? [''])[0];
  return table
    .trim()
    .split('\n')
    .slice(2)
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

/**
 * The environment variables `npm start` reads: every `env['NAME']`, `env.NAME` and
 * `…Variable: 'NAME'` in the files `scripts/start.ts` imports, directly or not.
 */
async function variablesStartReads(): Promise<string[]> {
  const seen = new Set<string>();
  const names = new Set<string>();
  const visit = async (path: string): Promise<void> => {
    if (seen.has(path)) return;
    seen.add(path);
    const text = await read(path);
    for (const match of text.matchAll(
      /\benv(?:\[['"]([A-Z][A-Z0-9_]+)['"]\]|\.([A-Z][A-Z0-9_]+))|Variable: '([A-Z][A-Z0-9_]+)'/g,
    )) {
      names.add(match[1] ?? match[2] ?? match[3] ?? '');
    }
    for (const match of text.matchAll(/(?:from|import\() ?'(\.{1,2}\/[^']+\.ts)'/g)) {
      await visit(new URL(match[1] ?? '', `file:///${path}`).pathname.slice(1));
    }
  };
  await visit('scripts/start.ts');
  return [...names].sort();
}

/** The first cell of each row without its backticks. */
const namesOf = (rows: string[][]): string[] => rows.map((row) => (row[0] ?? '').replace(/`/g, ''));

/** Parses a TypeScript source file of the repository. */
async function parse(path: string): Promise<ts.SourceFile> {
  return ts.createSourceFile(path, await read(path), ts.ScriptTarget.ES2022, true);
}

/** The members of interface `name` in `path`, with their type as written. */
async function interfaceMembers(path: string, name: string): Promise<Array<[string, string]>> {
  const source = await parse(path);
  const members: Array<[string, string]> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === name) {
      for (const member of node.members) {
        const key =
          member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) ? member.name.text : '';
        const type = ts.isPropertySignature(member) ? (member.type?.getText(source) ?? '') : 'method';
        members.push([key, type]);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (members.length === 0) throw new Error(`${path} has no interface ${name}`);
  return members;
}

/** The keys of the `OPTION_RULES` table in `src/mount-options.ts`, in its order. */
async function mountOptionNames(): Promise<string[]> {
  const source = await parse('src/mount-options.ts');
  let names: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && node.name.getText(source) === 'OPTION_RULES' && node.initializer) {
      const table = node.initializer as ts.ObjectLiteralExpression;
      names = table.properties.map((property) => property.name?.getText(source) ?? '');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** `name: value;` declarations of `--agent-chat-…` properties in a stylesheet, and `var(--…, default)` reads. */
async function declaredProperties(path: string, form: 'declared' | 'read'): Promise<Array<[string, string]>> {
  const css = await read(path);
  const pattern =
    form === 'declared' ? /(--agent-chat-[a-z-]+): ([^;]+);/g : /var\((--agent-chat-launcher-[a-z-]+), ([^)]*\)?)\)/g;
  const found = new Map<string, string>();
  for (const match of css.matchAll(pattern)) found.set(match[1] ?? '', match[2] ?? '');
  return [...found];
}

/** How the page writes a default: `value`, or `light`, dark `dark` for a `light-dark()` pair. */
function formatDefault(value: string): string {
  const pair = /^light-dark\(([^,]+), ([^)]+)\)$/.exec(value);
  return pair ? `\`${pair[1]}\`, dark \`${pair[2]}\`` : `\`${value}\``;
}

describe('docs/reference.md', () => {
  test('lists every mount option, in the order mount validates them', async () => {
    expect(namesOf(await tableRows('Mount options'))).toEqual(await mountOptionNames());
    expect((await interfaceMembers('src/mount-options.ts', 'MountOptions')).map(([name]) => name)).toEqual(
      await mountOptionNames(),
    );
  });

  test('lists every member of the mounted handle', async () => {
    const members = (await interfaceMembers('src/mount.ts', 'MountedAgentChat')).map(([name]) => name);
    expect(namesOf(await tableRows('The mounted handle'))).toEqual(members);
  });

  test('lists every event with its detail type, as the event map declares it', async () => {
    const declared = await interfaceMembers('src/ui/agent-chat/agent-chat-events.ts', 'AgentChatEventDetails');
    expect((await tableRows('Events')).map((row) => [row[0], row[1]])).toEqual(
      declared.map(([name, type]) => [`\`${name}\``, `\`${type}\``]),
    );
  });

  test('lists every custom property with the default the stylesheets give it', async () => {
    const host = await declaredProperties('src/ui/styles/host.styles.ts', 'declared');
    expect((await tableRows('CSS custom properties', 0)).map((row) => [row[0], row[1]])).toEqual(
      host.map(([name, value]) => [`\`${name}\``, formatDefault(value)]),
    );
    const launcher = await declaredProperties('src/ui/launcher/launcher.styles.ts', 'read');
    const byName = (rows: string[][]) => rows.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
    expect(byName((await tableRows('CSS custom properties', 1)).map((row) => [row[0] ?? '', row[1] ?? '']))).toEqual(
      byName(launcher.map(([name, value]) => [`\`${name}\``, formatDefault(value)])),
    );
    expect(launcher).toHaveLength(7);
  });

  test("lists every part: the element's (from its manifest) and the launcher's", async () => {
    const manifest = await createCustomElementsManifest(rootDir);
    const element = manifest.modules.flatMap((module) => module.declarations ?? []).find((item) => 'cssParts' in item);
    const parts = ((element as { cssParts?: Array<{ name: string }> } | undefined)?.cssParts ?? []).map(
      (part) => part.name,
    );
    // The launcher is plain DOM: its parts are set as setAttribute('part', …).
    const launcherParts = [
      ...(await read('src/ui/launcher/create-launcher.ts')).matchAll(/setAttribute\('part', '([^']+)'\)/g),
    ].map((match) => match[1]);
    expect(launcherParts).toHaveLength(2);
    expect(namesOf(await tableRows('Parts')).sort()).toEqual([...parts, ...launcherParts].sort());
  });

  test('lists every createRunEngine and createOpenAiCompatibleModel option, and handler options that exist', async () => {
    expect(namesOf(await subsectionRows('createRunEngine'))).toEqual(
      (await interfaceMembers('src/server/agent-loop/engine-options.ts', 'RunEngineOptions')).map(([name]) => name),
    );
    expect(namesOf(await subsectionRows('createOpenAiCompatibleModel'))).toEqual(
      (await interfaceMembers('src/server/models/openai-compatible-model.ts', 'OpenAiCompatibleModelOptions')).map(
        ([name]) => name,
      ),
    );
    const doc = await read('docs/reference.md');
    const handler = doc.slice(
      doc.indexOf('### createAgentFetchHandler and createAgentHandler'),
      doc.indexOf('### createRunEngine'),
    );
    const listed = [...handler.matchAll(/^- `([a-zA-Z]+)`/gm)].map((match) => match[1]);
    expect(listed).toEqual(['authenticate', 'engine', 'storage', 'basePath', 'limits', 'cors', 'clientAddress']);
    const serverOptions = (await read('docs/server.md')).split(/^## /m).find((part) => part.startsWith('Options\n'));
    for (const name of listed) expect(serverOptions).toMatch(new RegExp(`^\\| \`${name}[(\`]`, 'm'));
  });

  test('lists exactly the environment variables npm start reads', async () => {
    const read = await variablesStartReads();
    expect(read).toContain('AGENT_CHAT_DB');
    expect(namesOf(await subsectionRows('Environment variables of `npm start`')).sort()).toEqual(read);
  });

  test('quotes the whole get_weather tool as examples/five-minutes/weather-tool.mjs is', async () => {
    const doc = await read('docs/reference.md');
    const blocks = [...doc.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]);
    const file = await read('examples/five-minutes/weather-tool.mjs');
    expect(file).toContain("policy: 'ask'");
    expect(blocks).toContain(file);
    for (const recipe of ['server.mjs', 'server-express.mjs']) {
      expect(await read(`examples/five-minutes/${recipe}`)).toContain('tools: [...createDemoTools(), weatherTool]');
    }
  });

  test("quotes the five-minute recipe's page and script exactly as the files are", async () => {
    const doc = await read('docs/reference.md');
    const blocks = [...doc.matchAll(/```(?:html|js)\n([\s\S]*?)```/g)].map((match) =>
      (match[1] ?? '').replace(/^ {3}/gm, ''),
    );
    expect(blocks).toContain(await read('examples/five-minutes/public/index.html'));
    expect(blocks).toContain(await read('examples/five-minutes/public/chat.js'));
  });
});
