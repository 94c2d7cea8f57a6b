import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

/** The rule ids ESLint reports for `code` as if it were the file at `filePath`. */
async function ruleIdsFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? 'parse-error');
}

/** A planted violation per layer boundary (README, Layout): each must be refused by lint. */
const PLANTED: { title: string; filePath: string; code: string }[] = [
  {
    title: 'core imports server',
    filePath: 'src/core/client/planted.ts',
    code: "import { createAgentHandler } from '../../server/create-agent-handler.ts';\nexport const x = createAgentHandler;\n",
  },
  {
    title: 'core imports ui',
    filePath: 'src/core/client/planted.ts',
    code: "import { renderMarkdown } from '../../ui/markdown/render-markdown.ts';\nexport const x = renderMarkdown;\n",
  },
  {
    title: 'core touches a browser global',
    filePath: 'src/core/client/planted.ts',
    code: 'export const x = (): unknown => window;\n',
  },
  {
    title: 'ui imports server',
    filePath: 'src/ui/planted.ts',
    code: "import { createAgentHandler } from '../server/create-agent-handler.ts';\nexport const x = createAgentHandler;\n",
  },
  {
    title: 'ui reaches into core past its index',
    filePath: 'src/ui/planted.ts',
    code: "import { reduceRun } from '../core/state/run-reducer.ts';\nexport const x = reduceRun;\n",
  },
  {
    title: 'a browser entry (src/mount.ts) imports server',
    filePath: 'src/mount.ts',
    code: "import { createAgentHandler } from './server/create-agent-handler.ts';\nexport const x = createAgentHandler;\n",
  },
  {
    title: 'server imports ui',
    filePath: 'src/server/planted.ts',
    code: "import { renderMarkdown } from '../ui/markdown/render-markdown.ts';\nexport const x = renderMarkdown;\n",
  },
  {
    title: 'the domain imports the HTTP layer',
    filePath: 'src/server/runs/planted.ts',
    code: "import { fail } from '../http/problem-error.ts';\nexport const x = fail;\n",
  },
  {
    title: 'the fetch core (a route) imports the Node adapter',
    filePath: 'src/server/routes/planted.ts',
    code: "import { toWebRequest } from '../node/to-web-request.ts';\nexport const x = toWebRequest;\n",
  },
  {
    title: 'the fetch core imports node:http',
    filePath: 'src/server/agent-core.ts',
    code: "import { createServer } from 'node:http';\nexport const x = createServer;\n",
  },
  {
    title: 'core imports an AG-UI package',
    filePath: 'src/core/client/planted.ts',
    code: "import { EventType } from '@ag-ui/core';\nexport const x = EventType;\n",
  },
  {
    title: 'ui imports an AG-UI package',
    filePath: 'src/ui/planted.ts',
    code: "import { EventEncoder } from '@ag-ui/encoder';\nexport const x = EventEncoder;\n",
  },
  {
    title: 'a browser entry (src/index.ts) imports an AG-UI package',
    filePath: 'src/index.ts',
    code: "import { HttpAgent } from '@ag-ui/client';\nexport const x = HttpAgent;\n",
  },
  {
    title: 'the browser tools module imports the widget',
    filePath: 'src/tools/planted.ts',
    code: "import { renderToolCard } from '../ui/tool-card/tool-card.ts';\nexport const x = renderToolCard;\n",
  },
  {
    title: 'embed imports past src/index.ts and src/define.ts',
    filePath: 'embed/planted.ts',
    code: "import { createAgentClient } from '../src/core/client/agent-client.ts';\nexport const x = createAgentClient;\n",
  },
  {
    title: 'the script-tag launcher file imports past src/ui/launcher',
    filePath: 'src/parts/launcher/launcher-file.ts',
    code: "import { mount } from '../../mount.ts';\nexport const x = mount;\n",
  },
  {
    title: "the script-tag tool cards file (rendering with the widget's Lit) imports Lit",
    filePath: 'src/parts/tool-cards/tool-cards-file.ts',
    code: "import { html } from 'lit';\nexport const x = html;\n",
  },
  {
    title: "a new part's file (rendering with the widget's Lit) imports Lit",
    filePath: 'src/parts/planted/planted-file.ts',
    code: "import { html } from 'lit';\nexport const x = html;\n",
  },
  {
    title: "a part's file carries the whole widget",
    filePath: 'src/parts/planted/planted-file.ts',
    code: "import { mount } from '../../mount.ts';\nexport const x = mount;\n",
  },
  {
    title: 'the launcher (plain DOM, shipped without Lit) imports Lit',
    filePath: 'src/ui/launcher/planted.ts',
    code: "import { html } from 'lit';\nexport const x = html;\n",
  },
  {
    title: 'a script-tag locale pack imports past src/ui/i18n',
    filePath: 'embed/locale-planted.ts',
    code: "import { mount } from '../src/mount.ts';\nexport const x = mount;\n",
  },
];

describe('lint zones refuse a planted violation of each layer boundary', () => {
  test.each(PLANTED)('$title', async ({ filePath, code }) => {
    const ruleIds = await ruleIdsFor(filePath, code);
    expect(ruleIds.some((id) => id === 'no-restricted-imports' || id === 'no-restricted-globals')).toBe(true);
  });

  test('the same imports through the allowed doors pass', async () => {
    expect(
      await ruleIdsFor(
        'embed/locale-planted.ts',
        "import { EN_STRINGS } from '../src/ui/i18n/en.ts';\nexport const x = EN_STRINGS;\n",
      ),
    ).toEqual([]);
    expect(
      await ruleIdsFor(
        'src/parts/launcher/launcher-file.ts',
        "import { createLauncher } from '../../ui/launcher/create-launcher.ts';\nexport const x = createLauncher;\n",
      ),
    ).toEqual([]);
    expect(
      await ruleIdsFor(
        'src/ui/planted.ts',
        "import { reduceRun } from '../core/index.ts';\nexport const x = reduceRun;\n",
      ),
    ).toEqual([]);
    expect(
      await ruleIdsFor(
        'src/server/planted.ts',
        "import { reduceRun } from '../core/state/run-reducer.ts';\nexport const x = reduceRun;\n",
      ),
    ).toEqual([]);
  });
});
