import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Layer boundaries (README, Layout): core ↛ ui/server, ui ↛ server, ui → core only via its index,
 * tools ↛ ui/server (core only via its index), embed → src's browser entries, parts and tools/index only.
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
    // The optional parts' plumbing (src/parts): browser code beside the entries, never server code.
    files: ['src/parts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '../server', '../../server'],
              message: 'The optional parts must not import server code.',
            },
            REACT_IMPORTS,
            AG_UI_IMPORTS,
          ],
        },
      ],
    },
  },
  {
    // A part's file (src/parts/part-table.ts) holds no Lit: it renders with the widget's, or is plain
    // DOM (the launcher). A part that carries its own copy (`ownsLit`) is listed in `ignores`.
    files: ['src/parts/*/*-file.ts'],
    ignores: ['src/parts/conversations/conversations-file.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '../server', '../../server'],
              message: 'The optional parts must not import server code.',
            },
            {
              group: [
                '../../index.ts',
                '../../define.ts',
                '../../mount.ts',
                '../../esm-mount.ts',
                '../../ui/agent-chat/**',
              ],
              message: "A part's file carries its part only, never the widget (agent-chat.js has it).",
            },
            { group: LIT_IMPORTS.group, message: "A part's file renders with the widget's Lit: no Lit." },
            REACT_IMPORTS,
            AG_UI_IMPORTS,
          ],
        },
      ],
    },
  },
  {
    // The launcher's part is plain DOM, shipped without Lit, with the launcher.
    files: ['src/parts/launcher/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./\\.\\./(?!ui/launcher/[^/]+\\.ts$|agent-chat-global\\.ts$)',
              message: 'src/parts/launcher imports only src/ui/launcher.',
            },
            LIT_IMPORTS,
          ],
        },
      ],
    },
  },
  {
    files: ['embed/**/*.ts'],
    ignores: ['embed/locale-*.ts'],
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
                '!../src/parts/**',
              ],
              message:
                'embed imports only the browser entries in src/ (index, define, mount), the optional parts (src/parts) and, for the tools script, src/tools/index.ts.',
            },
            REACT_IMPORTS,
            AG_UI_IMPORTS,
          ],
        },
      ],
    },
  },
);
