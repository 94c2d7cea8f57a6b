// The gallery page (demo/gallery.html): one <agent-chat> per state, theme and width, each given a
// fixed client that reports one unchanging ClientState (docs/client.md), so every state of the
// widget shows side by side with no server and no model. Actions resolve and do nothing.
// `window.agentChatGallery` lists the states for the end-to-end tests (e2e/gallery.spec.ts) and
// for `npm run images:refresh`; `ready` resolves once every widget has rendered and its code is highlighted.

const THEMES = ['light', 'dark'];
const WIDTHS = [
  { id: 'desktop', label: 'desktop, 420 px' },
  { id: 'phone', label: 'phone, 360 px' },
];

/** A bootstrap answer as the reference server gives one (only what the widget reads matters). */
const BOOTSTRAP = {
  protocol: { version: '1.0', supported: ['1.0'] },
  identity: { identityId: 'gallery-user', displayName: 'Sam' },
  agent: { agentId: 'acme', versionId: 'acme-1', name: 'Acme Assistant', status: 'active' },
  models: [{ modelId: 'scripted', label: 'Scripted', default: true, available: true }],
  capabilities: {
    reasoning: { visible: true },
    approvals: { supported: true, approveWithEdits: false },
    inputs: { duringRun: true, contentTypes: ['text/plain'] },
    cancel: true,
    sessions: { list: true, rename: true, delete: true },
    stream: { poll: false, createAndStream: true },
  },
  limits: {
    maxInputChars: 8000,
    maxInputsPerRun: 8,
    maxEventBytes: 65536,
    maxRequestBytes: 262144,
    runMaxDurationSec: 600,
    interruptDefaultTtlSec: 900,
    eventRetentionSec: 86400,
    idempotencyKeyTtlSec: 86400,
    maxRounds: 8,
    runsPerMinute: 30,
    maxActiveRuns: 5,
    inputsPerMinute: 30,
    interruptAnswersPerMinute: 30,
    cancelsPerMinute: 30,
    readsPerMinute: 600,
    sessionChangesPerMinute: 30,
    feedbackPerMinute: 30,
    maxContentParts: 8,
    maxContextRefs: 8,
    maxContextRefChars: 512,
    maxContextTitleChars: 200,
    maxContextUrlChars: 2048,
    maxIdChars: 128,
    maxReasonChars: 500,
    maxTitleChars: 200,
    maxCommentChars: 1000,
    maxInstructionChars: 4000,
    maxFocusChars: 8000,
    sessionIdleTtlSec: 86400,
    maxSessionsPerIdentity: 100,
    maxRunsPerSession: 100,
  },
  stream: { heartbeatSec: 15, clientIdleTimeoutSec: 45, maxStreamDurationSec: 300, retryMs: 1000 },
};

/** A ClientState with nothing in it but the bootstrap; each state lays its own fields over it. */
function clientState(fields) {
  return {
    connection: 'idle',
    sessionId: 'session-gallery',
    messages: [],
    hasOlderMessages: false,
    isLoadingOlderMessages: false,
    toolCalls: [],
    interrupts: [],
    run: null,
    pendingSend: null,
    submittingInterruptIds: [],
    error: null,
    bootstrap: BOOTSTRAP,
    isStopping: false,
    discardedMessageIds: [],
    runErrors: [],
    toolRunner: null,
    toolStops: {},
    notices: [],
    ...fields,
  };
}

/** A message of `run` (the run id is part of the id, so two states never share one). */
function message(runId, id, role, content, status = 'complete') {
  return { messageId: `${runId}-${id}`, runId, role, content, status };
}

/** The run the client follows, active or ended. */
function run(runId, status) {
  return { runId, status, lastSeq: 12 };
}

/** A completed tool call of `run` that answered with `root` as its widget (docs/widgets.md). */
function widgetCall(runId, name, title, content, root) {
  return {
    toolCallId: `${runId}-tool`,
    name,
    title,
    parentMessageId: `${runId}-answer`,
    args: {},
    status: 'completed',
    result: {
      messageId: `${runId}-result`,
      content,
      widget: { widgetId: `${runId}-widget`, root, revision: 0, digest: `sha256-${runId}` },
    },
  };
}

/**
 * The demo's order card, as src/server/tools/demo-widgets.ts builds it: the demo server puts it in
 * the page's `#demo-order-card` JSON (demo/serve-demo.ts).
 */
const ORDER_CARD = JSON.parse(document.getElementById('demo-order-card').textContent);

/** The rest of the catalogue: text and caption, Markdown, a list, icons and badges in every tone, the other fields, a submitted form. */
const CATALOGUE_CARD = {
  type: 'card',
  children: [
    { type: 'title', text: 'Book a return' },
    { type: 'text', text: 'Pick a day and how you send the parcel back.' },
    { type: 'caption', text: 'Free within 30 days of delivery.', tone: 'info' },
    { type: 'markdown', text: 'See the **returns policy** for what can go back.' },
    {
      type: 'list',
      ordered: true,
      items: [
        { type: 'list_item', children: [{ type: 'text', text: 'Pack the item with its label.' }] },
        { type: 'list_item', children: [{ type: 'text', text: 'Drop it off or wait for the courier.' }] },
      ],
    },
    {
      type: 'row',
      gap: 'small',
      children: [
        { type: 'icon', name: 'calendar', label: 'Dates' },
        { type: 'badge', text: 'Neutral' },
        { type: 'badge', text: 'Info', tone: 'info' },
        { type: 'badge', text: 'Warning', tone: 'warning' },
        { type: 'badge', text: 'Danger', tone: 'danger' },
      ],
    },
    {
      type: 'form',
      action: 'book_return',
      submitLabel: 'Book',
      fields: [
        { type: 'text', name: 'reference', label: 'Order reference', value: 'A-1042' },
        { type: 'date', name: 'day', label: 'Pick-up day', value: '2026-12-10' },
        {
          type: 'radio',
          name: 'how',
          label: 'How',
          options: [
            { value: 'courier', label: 'Courier pick-up' },
            { value: 'dropoff', label: 'Drop-off point' },
          ],
          value: 'courier',
        },
        { type: 'checkbox', name: 'label', label: 'Email me a printable label', value: true },
      ],
    },
    {
      type: 'form',
      action: 'rate',
      submitLabel: 'Send',
      submitted: true,
      fields: [{ type: 'text', name: 'note', label: 'A submitted form', value: 'Thanks!' }],
    },
    {
      type: 'row',
      gap: 'small',
      children: [
        { type: 'button', label: 'Secondary', action: 'later', style: 'secondary' },
        { type: 'button', label: 'Danger', action: 'cancel', style: 'danger' },
        { type: 'button', label: 'Disabled', action: 'none', disabled: true },
      ],
    },
  ],
};

/** An AgentClient that always reports `state`: its actions resolve and change nothing. */
function createFixedClient(state) {
  const listeners = new Set();
  const done = () => Promise.resolve();
  return {
    bootstrap: () => Promise.resolve(BOOTSTRAP),
    send: () => Promise.resolve({ runId: state.run?.runId ?? 'run-gallery' }),
    cancel: done,
    approve: done,
    addInput: done,
    restore: done,
    switchSession: done,
    loadOlderMessages: done,
    connect: done,
    retry: done,
    newSession: () => undefined,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getState: () => state,
    resetIdentity: () => undefined,
    setVisibility: () => undefined,
    setOnline: () => undefined,
    dispose: () => listeners.clear(),
  };
}

const LONG_ANSWER = `## Shipping your order

Your order **A-1001** left the warehouse this morning. Here is what happens next:

1. The carrier scans it at the hub tonight.
2. It goes out for delivery tomorrow between 9:00 and 12:00.
3. You get a text message when the driver is ten minutes away.

| Item | Quantity | Price |
| --- | ---: | ---: |
| Desk lamp | 1 | €39.00 |
| LED bulb, warm white | 4 | €12.80 |
| **Total** | | **€51.80** |

To follow it from a script, ask the orders API:

\`\`\`js
const response = await fetch('/api/orders/A-1001/tracking');
const { status, eta } = await response.json();
console.log(\`\${status}: arriving \${new Date(eta).toLocaleString()}\`);
\`\`\`

- Not home? The driver leaves it at the pick-up point on your street.
- Something missing? Reply here and I open a claim for you.`;

const CODE_ANSWER = `Here is a typed retry helper, and how to call it:

\`\`\`ts
/** Tries \`task\` up to \`attempts\` times, waiting longer after each failure. */
export async function retry<T>(task: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await task();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    }
  }
}
\`\`\`

\`\`\`json
{ "attempts": 3, "retryOn": ["timeout", 503], "log": true }
\`\`\``;

/** Every state the gallery shows: its id (for tests and file names), heading, one line about it, and what the widget gets. */
const STATES = [
  {
    id: 'empty',
    title: 'Empty, with a greeting and suggestions',
    about: 'A new conversation: the greeting and the suggestion chips.',
    state: clientState({ sessionId: null }),
    element: {
      greeting: 'Hi Sam, how can I help you today?',
      suggestions: ['Where is my order?', 'What can you do?', 'Delete a draft'],
    },
  },
  {
    id: 'thinking',
    title: 'Sent, awaiting the answer',
    about: 'The run is active and its last message is the user’s: the “Thinking…” working row.',
    state: clientState({
      connection: 'streaming',
      messages: [message('run-thinking', 'user', 'user', 'Where is my order A-1001?')],
      run: run('run-thinking', 'running'),
    }),
  },
  {
    id: 'model-retry',
    title: 'The server tries the model again',
    about:
      'A model call failed and the server waits to try again (NOTICE MODEL_RETRYING): the working row counts down to the next attempt.',
    state: clientState({
      connection: 'streaming',
      messages: [message('run-retry', 'user', 'user', 'Summarise my open orders.')],
      run: run('run-retry', 'running'),
      notices: [
        {
          level: 'info',
          code: 'MODEL_RETRYING',
          message: 'The model did not answer; trying again.',
          attempt: 2,
          // Ten minutes from the page's load: the countdown reads the same in every screenshot.
          retryAt: new Date(Date.now() + 10 * 60_000).toISOString(),
        },
      ],
    }),
  },
  {
    id: 'streaming',
    title: 'Reasoning open, answer streaming',
    about: 'The reasoning panel kept open while the Markdown answer streams in.',
    state: clientState({
      connection: 'streaming',
      messages: [
        message('run-streaming', 'user', 'user', 'What can you do?'),
        message(
          'run-streaming',
          'reasoning',
          'reasoning',
          'The user asks what I can do. List the tools this server registers, then suggest a first step.',
        ),
        message(
          'run-streaming',
          'answer',
          'assistant',
          'I can help with a few things here:\n\n- **Orders**: look one up by its number\n- **Drafts**: list them, and delete one once you approve\n- **Your profile**: propose',
          'streaming',
        ),
      ],
      run: run('run-streaming', 'running'),
    }),
    element: { collapseReasoning: false },
  },
  {
    id: 'tools',
    title: 'Tool rows: running, completed, failed, denied',
    about: 'One row per tool call, each with its status; the last one still running, with its progress.',
    state: clientState({
      connection: 'streaming',
      messages: [
        message('run-tools', 'user', 'user', 'Tidy up my drafts and send me a report.'),
        message('run-tools', 'answer', 'assistant', 'I’ll look at your drafts first.'),
      ],
      toolCalls: [
        {
          toolCallId: 'tool-list',
          name: 'drafts.list',
          title: 'List drafts',
          parentMessageId: 'run-tools-answer',
          args: {},
          status: 'completed',
          result: { messageId: 'tool-list-result', content: '3 drafts: "Q3 plan", "Q3 plan (old)", "Notes"' },
        },
        {
          toolCallId: 'tool-archive',
          name: 'drafts.archive',
          title: 'Archive draft',
          parentMessageId: 'run-tools-answer',
          args: { draftId: 'd-3' },
          status: 'failed',
          result: { messageId: 'tool-archive-result', content: 'The drafts service did not answer.' },
        },
        {
          toolCallId: 'tool-delete',
          name: 'drafts.delete',
          title: 'Delete draft',
          parentMessageId: 'run-tools-answer',
          args: { draftId: 'd-2' },
          status: 'denied',
        },
        {
          toolCallId: 'tool-report',
          name: 'reports.generate',
          title: 'Generate report',
          parentMessageId: 'run-tools-answer',
          args: { drafts: 3 },
          status: 'running',
          progress: { message: 'Reading draft 2 of 3', fraction: 0.6 },
        },
      ],
      interrupts: [
        {
          id: 'interrupt-delete',
          reason: 'tool_call',
          toolCallId: 'tool-delete',
          state: 'resolved',
          decision: 'deny',
          resolvedBy: 'user',
          metadata: { destructive: true },
        },
      ],
      run: run('run-tools', 'running'),
    }),
  },
  {
    id: 'approval',
    title: 'An open approval (destructive)',
    about:
      "A tool call on one line, then the approval card for deleting a draft: the tool's question and consequence, the arguments as a list (the JSON behind Details), Allow marked as dangerous, and Deny.",
    state: clientState({
      connection: 'streaming',
      messages: [
        message('run-approval', 'user', 'user', 'Delete my old Q3 plan draft.'),
        message('run-approval', 'lookup', 'assistant', 'Let me find your drafts.'),
        message(
          'run-approval',
          'ask',
          'assistant',
          'Found it. Deleting a draft cannot be undone, so I need your approval.',
        ),
      ],
      toolCalls: [
        {
          toolCallId: 'approval-list',
          name: 'drafts.list',
          title: 'List drafts',
          parentMessageId: 'run-approval-lookup',
          args: {},
          status: 'completed',
          result: { messageId: 'approval-list-result', content: '3 drafts: "Q3 plan", "Q3 plan (old)", "Notes"' },
        },
        {
          toolCallId: 'approval-delete',
          name: 'drafts.delete',
          title: 'Delete draft',
          parentMessageId: 'run-approval-ask',
          args: { draftId: 'd-2', title: 'Q3 plan (old)' },
          argsDigest: 'sha256:gallery',
          status: 'awaiting_approval',
        },
      ],
      interrupts: [
        {
          id: 'interrupt-approval',
          reason: 'tool_call',
          toolCallId: 'approval-delete',
          argsDigest: 'sha256:gallery',
          message: 'Delete the draft "Q3 plan (old)"?',
          metadata: {
            destructive: true,
            summary: 'Delete the draft "Q3 plan (old)"?',
            consequence: "This can't be undone.",
          },
          state: 'open',
        },
      ],
      run: run('run-approval', 'awaiting_input'),
    }),
  },
  {
    id: 'proposal',
    title: 'A proposal to apply or dismiss',
    about: 'A previewed profile change (fields and a text diff) with Apply and Dismiss.',
    state: clientState({
      connection: 'streaming',
      messages: [
        message('run-proposal', 'user', 'user', 'Update my bio to say I moved to Lisbon.'),
        message('run-proposal', 'answer', 'assistant', 'Here is the change I would make to your profile.'),
      ],
      toolCalls: [
        {
          toolCallId: 'proposal-update',
          name: 'profile.update',
          title: 'Update profile',
          parentMessageId: 'run-proposal-answer',
          args: { city: 'Lisbon' },
          argsDigest: 'sha256:proposal',
          status: 'awaiting_approval',
        },
      ],
      interrupts: [
        {
          id: 'interrupt-proposal',
          reason: 'proposal',
          toolCallId: 'proposal-update',
          argsDigest: 'sha256:proposal',
          // The server sends a proposal's summary as its message too (docs/protocol.md §11.1).
          message: 'Change your city and the second line of your bio.',
          state: 'open',
          proposal: {
            summary: 'Change your city and the second line of your bio.',
            fields: [{ name: 'City', before: 'Porto', after: 'Lisbon' }],
            diff: [
              { change: 'unchanged', text: 'Product designer.' },
              { change: 'removed', text: 'Based in Porto.' },
              { change: 'added', text: 'Based in Lisbon since May.' },
            ],
            apply: { tool: 'profile.update', arguments: { city: 'Lisbon' } },
          },
        },
      ],
      run: run('run-proposal', 'awaiting_input'),
    }),
  },
  failedAnswerState(),
  {
    id: 'failed-request',
    title: 'A failed request',
    about:
      'The send never reached the server: the error box with its reference and Retry; the text is back in the composer.',
    state: clientState({
      messages: [
        message('run-request', 'user', 'user', 'Hello!'),
        message('run-request', 'answer', 'assistant', 'Hello! How can I help?'),
      ],
      run: run('run-request', 'completed'),
      pendingSend: { clientMessageId: 'client-failed', text: 'Where is my order?', status: 'failed' },
      error: {
        code: 'NETWORK_ERROR',
        message: 'The server could not be reached. Check your connection and try again.',
        reference: 'req_01HZX4G7',
        retryable: true,
        source: 'request',
      },
    }),
  },
  {
    id: 'reconnecting',
    title: 'Reconnecting',
    about: 'The stream dropped mid-answer: the status line says “Reconnecting…” while the client reopens it.',
    state: clientState({
      connection: 'reconnecting',
      messages: [
        message('run-reconnect', 'user', 'user', 'Summarise my last three orders.'),
        message(
          'run-reconnect',
          'answer',
          'assistant',
          'Your last three orders were a desk lamp, four LED bulbs and',
          'streaming',
        ),
      ],
      run: run('run-reconnect', 'running'),
    }),
  },
  {
    id: 'stopping',
    title: 'Stopping',
    about: 'Stop was pressed: the status line says “Stopping…” until the server confirms.',
    state: clientState({
      connection: 'streaming',
      isStopping: true,
      messages: [
        message('run-stop', 'user', 'user', 'Write me a long story about a lighthouse.'),
        message(
          'run-stop',
          'answer',
          'assistant',
          'The lighthouse stood at the end of the pier, and every night its keeper climbed',
          'streaming',
        ),
      ],
      run: run('run-stop', 'cancelling'),
    }),
  },
  {
    id: 'long',
    title: 'A long answer: code, a table and a list',
    about: 'A finished Markdown answer with a numbered list, a table, a code block (with Copy) and a bullet list.',
    state: clientState({
      messages: [
        message('run-long', 'user', 'user', 'Where is my order A-1001?'),
        message('run-long', 'answer', 'assistant', LONG_ANSWER),
      ],
      run: run('run-long', 'completed'),
    }),
  },
  {
    id: 'code',
    title: 'Highlighted code',
    about:
      'Code blocks that name a language, highlighted by agent-chat.highlight.js (loaded for them): the label and Copy stay.',
    state: clientState({
      messages: [
        message('run-code', 'user', 'user', 'How do I retry a flaky request?'),
        message('run-code', 'answer', 'assistant', CODE_ANSWER),
      ],
      run: run('run-code', 'completed'),
    }),
  },
  {
    id: 'widget',
    title: 'A widget: the order card',
    about:
      'A tool answered with a declarative widget (agent-chat.widgets.js): a table, key–value pairs, a button and a form.',
    state: clientState({
      messages: [
        message('run-widget', 'user', 'user', 'Where is my order A-1042?'),
        message('run-widget', 'answer', 'assistant', ''),
        message('run-widget', 'after', 'assistant', 'It shipped and arrives on Thursday.'),
      ],
      toolCalls: [
        widgetCall('run-widget', 'orders.card', 'Order card', 'Order A-1042: shipped, arrives Thursday.', ORDER_CARD),
      ],
      run: run('run-widget', 'completed'),
    }),
  },
  {
    id: 'widget-catalogue',
    title: 'The rest of the widget catalogue',
    about:
      'Text, caption, Markdown, a list, icons, badges in every tone, text, date, radio and checkbox fields, a submitted form and button styles.',
    state: clientState({
      messages: [
        message('run-catalogue', 'user', 'user', 'I want to send it back.'),
        message('run-catalogue', 'answer', 'assistant', ''),
      ],
      toolCalls: [
        widgetCall('run-catalogue', 'returns.form', 'Return form', 'A return form for A-1042.', CATALOGUE_CARD),
      ],
      run: run('run-catalogue', 'completed'),
    }),
  },
  {
    id: 'rtl',
    title: 'Right to left (Arabic)',
    about: 'dir="rtl" with Arabic text: the layout mirrors, a widget too; the code block stays left to right.',
    state: clientState({
      messages: [
        message('run-rtl', 'user', 'user', 'مرحبا، أين طلبي؟'),
        message(
          'run-rtl',
          'answer',
          'assistant',
          'غادر طلبك **A-1001** المستودع هذا الصباح، ويصل غدا.\n\n- رقم التتبع: `TRK-42`\n- الموعد: بين ٩ و١٢\n\n```js\nconst answer = 42;\n```',
        ),
      ],
      toolCalls: [
        widgetCall('run-rtl', 'orders.card', 'بطاقة الطلب', 'الطلب A-1001: تم الشحن.', {
          type: 'card',
          children: [
            { type: 'title', text: 'الطلب A-1001' },
            { type: 'key_value', items: [{ key: 'التسليم', value: 'غدا' }] },
            { type: 'button', label: 'تتبع', action: 'track' },
          ],
        }),
      ],
      run: run('run-rtl', 'completed'),
    }),
    element: {
      locale: 'ar',
      dir: 'rtl',
      strings: { send: 'إرسال', composerPlaceholder: 'اكتب رسالة…' },
    },
  },
];

/** A failed answer: partial output, then the run's error kept with its turn, with Retry (it is the client's current error). */
function failedAnswerState() {
  const error = {
    code: 'MODEL_ERROR',
    message: 'The model stopped answering.',
    reference: 'corr_5f2c9a1e',
    retryable: true,
    source: 'run',
    runId: 'run-failed',
  };
  return {
    id: 'failed-answer',
    title: 'A failed answer with Retry',
    about: 'The run failed after part of its answer: the failure stays with its turn, with its reference and Retry.',
    state: clientState({
      messages: [
        message('run-failed', 'user', 'user', 'Compare the two Q3 plans.'),
        message('run-failed', 'answer', 'assistant', 'The newer plan moves the launch to', 'error'),
      ],
      run: run('run-failed', 'failed'),
      runErrors: [error],
      error,
    }),
  };
}

/** One widget of `spec` in `theme`, with its own fixed client. */
function createWidget(spec, theme) {
  const element = document.createElement('agent-chat');
  const { dir, ...properties } = { locale: 'en', conversations: false, ...spec.element };
  Object.assign(element, properties, { theme, client: createFixedClient(spec.state) });
  if (dir) element.dir = dir;
  return element;
}

function renderGallery() {
  const gallery = document.getElementById('gallery');
  const index = document.getElementById('gallery-index');
  const widgets = [];
  for (const spec of STATES) {
    const section = document.createElement('section');
    section.className = 'gallery-state';
    section.id = `state-${spec.id}`;
    section.dataset.state = spec.id;
    const heading = document.createElement('h2');
    heading.id = `state-${spec.id}-title`;
    heading.textContent = spec.title;
    section.setAttribute('aria-labelledby', heading.id);
    const about = document.createElement('p');
    about.textContent = spec.about;
    const row = document.createElement('div');
    row.className = 'gallery-row';
    for (const theme of THEMES) {
      for (const width of WIDTHS) {
        const cell = document.createElement('figure');
        cell.className = 'gallery-cell';
        cell.dataset.theme = theme;
        cell.dataset.width = width.id;
        const caption = document.createElement('figcaption');
        caption.textContent = `${theme === 'light' ? 'Light' : 'Dark'}, ${width.label}`;
        const widget = createWidget(spec, theme);
        widgets.push(widget);
        cell.append(caption, widget);
        row.append(cell);
      }
    }
    section.append(heading, about, row);
    gallery.append(section);

    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = `#${section.id}`;
    link.textContent = spec.title;
    item.append(link);
    index.append(item);
  }
  return Promise.all(widgets.map((widget) => widget.updateComplete)).then(highlighterArrived);
}

/**
 * Resolves once agent-chat.highlight.js has run and the code it was loaded for is highlighted (the
 * widgets ask for it when they render code that names a language), or after 10 s without it.
 */
function highlighterArrived() {
  const giveUpAt = Date.now() + 10_000;
  return new Promise((resolve) => {
    const check = () => {
      // Its blocks are highlighted in the same task that ran the file: one more task, and they are.
      if (window.AgentChatHighlight || Date.now() > giveUpAt) setTimeout(resolve);
      else setTimeout(check, 20);
    };
    check();
  });
}

/** Says where the widgets would be when the browser refused agent-chat.js (SRI mismatch, CSP, 404). */
function showGalleryUnavailable() {
  const note = document.createElement('p');
  note.setAttribute('role', 'status');
  note.textContent = 'agent-chat.js could not be loaded, so the gallery is empty. Run `npm run build` and reload.';
  document.getElementById('gallery').replaceChildren(note);
  return Promise.reject(new Error('agent-chat.js did not load'));
}

const ready = window.AgentChat ? renderGallery() : showGalleryUnavailable();
ready.catch(() => undefined);
window.agentChatGallery = {
  states: STATES.map(({ id, title }) => ({ id, title })),
  themes: THEMES,
  widths: WIDTHS.map(({ id }) => id),
  ready,
};
