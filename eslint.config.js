import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Layer boundaries (README, Layout): core ↛ ui/server, ui ↛ server, ui → core only via its index,
 * tools ↛ ui/server (core only via its index), embed → src's browser entries (and tools/index) only.
 */
/** React stays in `src/react` (`agent-chat/react`): the IIFE, the element, the core and the server never load it. */
const REACT_IMPORTS = {
  group: ['react', 'react/*', 'react-dom', 'react-dom/*', '@lit/react', '**/react/**', '../react'],
  message: 'Only src/react imports React.',
};
/** The launcher is plain DOM, so agent-chat.launcher.js ships without Lit. */
const LIT_IMPORTS = { group: ['lit', 'lit/*', '@lit/*'], message: 'The launcher is plain DOM: no Lit.' };
/** AG-UI is spoken by the server only (docs/ag-ui.md): the IIFE, the element and the core never load it. */
const AG_UI_IMPORTS = {
  group: ['@ag-ui/*', 'zod', 'zod/*', '**/server/ag-ui/**'],
  message: 'Only src/server imports the AG-UI packages.',
};
/** What src/ui (and the launcher inside it) may not import: server code, core past its index, React, AG-UI. */
const UI_IMPORTS = [
  { group: ['**/server/**', '../server', '../../server'], message: 'src/ui must not import server code.' },
  {
    group: ['**/core/*/**', '**/core/*.ts', '!**/core/index.ts'],
    message: 'src/ui imports core only through src/core/index.ts.',
  },
  REACT_IMPORTS,
  AG_UI_IMPORTS,
];

/** What src/server may not import: ui code, React. */
const SERVER_IMPORTS = [
  {
    group: ['**/ui/**', '../ui', '../../ui', 'lit', 'lit/*', 'dompurify'],
    message: 'src/server must not import ui code.',
  },
  REACT_IMPORTS,
];
/** The server's domain: what runs an agent and keeps its data, below the HTTP layer. */
const DOMAIN_FOLDERS = [
  'runs',
  'idempotency',
  'limits',
  'storage',
  'agent-loop',
  'tools',
  'models',
  'mcp',
  'executors',
  'ids',
  'json',
  'locale',
];

/**
 * A zone of src/server (its tests and test support aside): the server's own import rules plus
 * `forbidden`, what that layer may not import.
 */
function serverZone(files, forbidden) {
  return {
    files,
    ignores: ['**/*.test.ts', '**/test-support/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...SERVER_IMPORTS, forbidden] }] },
  };
}

const BROWSER_ONLY_GLOBALS = [
  'window',
  'document',
  'HTMLElement',
  'customElements',
  'localStorage',
  'sessionStorage',
  'navigator',
  'location',
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'examples/nextjs/.next/**',
      'examples/nextjs/next-env.d.ts',
      // What building an example in its own folder writes (README of each example).
      'examples/*/dist/**',
      'examples/*/build/**',
      'examples/*/.svelte-kit/**',
      'test-results/**',
      'playwright-report/**',
      'bench/.peers/**',
      'release/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': ['error', { selector: 'ExportAllDeclaration', message: 'Export names explicitly.' }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts', 'src/core/**/test-support/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/ui/**', '**/server/**', '../ui', '../server'],
              message: 'src/core must not import ui or server.',
            },
            {
              group: ['node:*', 'lit', 'lit/*', 'marked', 'dompurify'],
              message: 'src/core is DOM-free and runtime-neutral.',
            },
            REACT_IMPORTS,
            AG_UI_IMPORTS,
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...BROWSER_ONLY_GLOBALS.map((name) => ({
          name,
          message: 'src/core never touches browser globals; inject them.',
        })),
      ],
    },
  },
  {
    files: ['src/ui/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [...UI_IMPORTS],
        },
      ],
    },
  },
  {
    // The launcher ships in agent-chat.launcher.js without Lit: the ui rules, and no Lit.
    files: ['src/ui/launcher/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [...UI_IMPORTS, LIT_IMPORTS],
        },
      ],
    },
  },
  {
    // The browser entries beside the parts (mount, index, define, mount options) ship in the IIFE.
    files: ['src/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', './server', './server/*'],
              message: 'The browser entries must not import server code.',
            },
            REACT_IMPORTS,
            AG_UI_IMPORTS,
          ],
        },
      ],
    },
  },
  {
    // Browser tools for pages (agent-chat/tools, the second IIFE): browser code on the core, no widget, no server.
    files: ['src/tools/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '**/ui/**', '../server', '../ui', 'lit', 'lit/*', 'marked', 'dompurify'],
              message: 'src/tools imports neither the widget nor the server.',
            },
            {
              group: ['**/core/*/**', '**/core/*.ts', '!**/core/index.ts'],
              message: 'src/tools imports core only through src/core/index.ts.',
            },
            REACT_IMPORTS,
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: SERVER_IMPORTS }],
    },
  },
  // The domain never speaks HTTP: it raises DomainError (src/server/domain-error.ts), which the
  // routes answer as problems; Node's HTTP types stay in http/, routes/, node/ and the handler.
  serverZone([`src/server/{${DOMAIN_FOLDERS.join(',')}}/**/*.ts`, 'src/server/domain-error.ts'], {
    group: [
      '**/http/**',
      '**/routes/**',
      '**/node/**',
      '../http',
      '../routes',
      'node:http',
      'http',
      '**/create-agent-handler.ts',
    ],
    message: 'The domain never speaks HTTP: raise a DomainError and let the routes answer it.',
  }),
  // The fetch core (the pipeline, routes, operations, streams, AG-UI) runs on Web Request/Response: it never
  // imports the Node adapter (src/server/node) or Node's HTTP module, so it mounts on any server.
  serverZone(
    [
      'src/server/{routes,operations,sse,ag-ui}/**/*.ts',
      'src/server/agent-core.ts',
      'src/server/handler-routes.ts',
      'src/server/agent-server-options.ts',
      'src/server/create-agent-fetch-handler.ts',
    ],
    {
      group: ['**/node/**', 'node:http', '**/create-agent-handler.ts'],
      message: 'The fetch core speaks Web Request/Response; only the Node adapter (src/server/node) speaks node:http.',
    },
  ),
  {
    // A script-tag locale pack is data only: it may import the strings and the packs' global type.
    files: ['embed/locale-*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./src/(?!ui/i18n/[^/]+\\.ts$)',
              message: 'A locale pack imports only src/ui/i18n.',
            },
          ],
        },
      ],
    },
  },
  {
    // The script tag's tool cards file (agent-chat.tool-cards.js) renders with the widget's Lit: it holds none of its own.
    files: ['embed/tool-cards.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^\\.\\./src/(?!ui/tool-cards\\.ts$|tool-cards-global\\.ts$|ui/tool-card/widgets-on-demand\\.ts$|widgets-global\\.ts$)',
              message: 'embed/tool-cards.ts imports only src/ui/tool-cards.ts (and the widgets file it carries).',
            },
            { group: LIT_IMPORTS.group, message: "agent-chat.tool-cards.js renders with the widget's Lit: no Lit." },
          ],
        },
      ],
    },
  },
  {
    // The script tag's widgets file (agent-chat.widgets.js) renders with the widget's Lit: it holds none of its own.
    files: ['embed/widgets.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./src/(?!ui/widgets\\.ts$|widgets-global\\.ts$)',
              message: 'embed/widgets.ts imports only src/ui/widgets.ts.',
            },
            { group: LIT_IMPORTS.group, message: "agent-chat.widgets.js renders with the widget's Lit: no Lit." },
          ],
        },
      ],
    },
  },
  {
    // The script tag's turn actions file (agent-chat.turn-actions.js) renders with the widget's Lit: it holds none of its own.
    files: ['embed/turn-actions.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./src/(?!ui/turn-actions\\.ts$|turn-actions-global\\.ts$)',
              message: 'embed/turn-actions.ts imports only src/ui/turn-actions.ts.',
            },
            { group: LIT_IMPORTS.group, message: "agent-chat.turn-actions.js renders with the widget's Lit: no Lit." },
          ],
        },
      ],
    },
  },
  {
    // The script tag's composer extras file (agent-chat.composer-extras.js) renders with the widget's Lit: it holds none of its own.
    files: ['embed/composer-extras.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./src/(?!ui/composer-extras\\.ts$|composer-extras-global\\.ts$)',
              message: 'embed/composer-extras.ts imports only src/ui/composer-extras.ts.',
            },
            {
              group: LIT_IMPORTS.group,
              message: "agent-chat.composer-extras.js renders with the widget's Lit: no Lit.",
            },
          ],
        },
      ],
    },
  },
  {
    // The script tag's launcher file (agent-chat.launcher.js) is plain DOM: the launcher, never Lit.
    files: ['embed/launcher.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./src/(?!ui/launcher/[^/]+\\.ts$|agent-chat-global\\.ts$)',
              message: 'embed/launcher.ts imports only src/ui/launcher.',
            },
            LIT_IMPORTS,
          ],
        },
      ],
    },
  },
  {
    files: ['embed/**/*.ts'],
    ignores: [
      'embed/locale-*.ts',
      'embed/launcher.ts',
      'embed/tool-cards.ts',
      'embed/widgets.ts',
      'embed/turn-actions.ts',
      'embed/composer-extras.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../src/*/**',
                '!../src/index.ts',
                '!../src/define.ts',
                '!../src/tools/index.ts',
                '!../src/tools/agent-chat-tools-global.ts',
                '!../src/highlight/index.ts',
              ],
              message:
                'embed imports only the browser entries in src/ (index, define, mount) and, for the tools script, src/tools/index.ts (src/highlight/index.ts for the highlighter).',
            },
            REACT_IMPORTS,
            AG_UI_IMPORTS,
          ],
        },
      ],
    },
  },
);
