/**
 * The wire contract's request and response bodies (docs/protocol.md §5, §12, §16.2, §19) and its
 * event envelope and type names (§6.1, §7), as one JSON Schema (draft 2020-12): the single source
 * from which `npm run generate:contract` writes the TypeScript types
 * (`src/core/protocol/generated/wire-contract.ts`) and the Python client's typed dicts
 * (`clients/python/agent_chat_client/_contract.py`), and which the server compiles to validate
 * every request body (`src/server/operations/request-body-validators.ts`). Response bodies and
 * events are typed from it (the server writes them; the clients read them); the events' payloads
 * (`EventDataMap`, built on the snapshots) are still typed by hand in `events.ts`.
 *
 * Plain data, no library: the browser imports only the generated types. Besides JSON Schema it
 * uses three annotations the server reads:
 * - `x-limit`: the `Limits` member that bounds a string's characters or an array's entries; the
 *   server bounds them by its configured limits and answers `422 VALIDATION_FAILED` with
 *   `details: {field, limit, <limit>, actual}`. The server counts characters (these and any
 *   `maxLength`) in UTF-16 code units, as docs/protocol.md §16.2 does.
 * - `x-field`: the `details.field` an error at or under this member names (default: its path,
 *   `input.contextRefs[1].ref`).
 * - `x-checked-apart`: a member the server checks with code of its own (attachments and browser
 *   tools only when those parts are on; ids it looks up), so its validator leaves it out.
 */
export const WIRE_CONTRACT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://agent-chat.dev/schema/v1/wire-contract.json',
  $defs: {
    ReasoningEffort: {
      description: 'How hard a reasoning model thinks; a model offers a subset (`ModelInfo.reasoningOptions`).',
      enum: ['low', 'medium', 'high', 'xhigh', 'max'],
    },
    ApprovalDecision: { enum: ['allow', 'deny'] },
    TextContent: {
      description: 'One piece of user content; v1 accepts text only.',
      type: 'object',
      required: ['type', 'text'],
      properties: {
        type: { const: 'text' },
        text: { type: 'string', 'x-field': 'content.text' },
      },
    },
    InputContent: { $ref: '#/$defs/TextContent' },
    ContextRef: {
      description: 'A product-authorized reference the user attached (a document, a ticket).',
      type: 'object',
      required: ['ref'],
      properties: {
        ref: { type: 'string', minLength: 1, 'x-limit': 'maxContextRefChars' },
        title: { type: 'string', 'x-limit': 'maxContextTitleChars' },
        url: { type: 'string', 'x-limit': 'maxContextUrlChars' },
      },
    },
    FocusContext: {
      description: 'What the user is looking at, sent with a message for the model (docs/protocol.md §5.2).',
      type: 'object',
      required: ['text'],
      properties: {
        title: { type: 'string', 'x-limit': 'maxContextTitleChars' },
        text: { type: 'string', 'x-limit': 'maxFocusChars' },
      },
    },
    ClientId: {
      description: 'An id the client proposes: 1–`maxIdChars` characters of `[A-Za-z0-9_.:-]`.',
      type: 'string',
      pattern: '^[A-Za-z0-9_.:-]+$',
      'x-limit': 'maxIdChars',
    },
    Content: {
      description: 'The parts of a user message (at most `maxContentParts`, `maxInputChars` characters in all).',
      type: 'array',
      minItems: 1,
      items: { $ref: '#/$defs/InputContent' },
      'x-limit': 'maxContentParts',
      'x-field': 'content',
    },
    BrowserToolDeclaration: {
      description: 'A tool the page runs (docs/protocol.md §19.1).',
      type: 'object',
      required: ['name', 'description', 'parameters'],
      properties: {
        name: {
          description: '`[A-Za-z0-9_.-]`, 1–64 characters; a server tool of the same name wins.',
          type: 'string',
          pattern: '^[A-Za-z0-9_.-]{1,64}$',
        },
        description: { type: 'string', pattern: '\\S', 'x-limit': 'maxBrowserToolDescriptionChars' },
        title: {
          description: 'A short human title for the tool card.',
          type: 'string',
          'x-limit': 'maxContextTitleChars',
        },
        parameters: {
          description:
            'JSON Schema of the arguments; the server validates every call against it before it can be claimed.',
          type: 'object',
        },
        policy: {
          description:
            "`allow` runs at once, `ask` (the default) needs the user's approval each time; the server may only tighten it.",
          enum: ['allow', 'ask'],
        },
      },
    },
    BrowserTools: {
      description: 'Tools this page can run for the run (docs/protocol.md §19); ignored by a server without them.',
      type: 'array',
      items: { $ref: '#/$defs/BrowserToolDeclaration' },
      'x-limit': 'maxBrowserTools',
    },
    CreateRunRequest: {
      description: '`POST /runs` body.',
      type: 'object',
      required: ['agentVersionId', 'input'],
      properties: {
        sessionId: { type: 'string', 'x-limit': 'maxIdChars' },
        agentVersionId: { type: 'string', 'x-limit': 'maxIdChars' },
        input: {
          type: 'object',
          required: ['content'],
          properties: {
            clientMessageId: { $ref: '#/$defs/ClientId' },
            content: { $ref: '#/$defs/Content' },
            contextRefs: {
              type: 'array',
              items: { $ref: '#/$defs/ContextRef' },
              'x-limit': 'maxContextRefs',
              'x-field': 'input.contextRefs',
            },
            attachments: {
              description:
                'Files uploaded with `POST /attachments` for this message (at most `maxAttachmentsPerMessage`).',
              type: 'array',
              items: {
                type: 'object',
                required: ['attachmentId'],
                properties: { attachmentId: { type: 'string' } },
              },
              'x-checked-apart': true,
            },
            instruction: {
              description: "The host's instruction for this send only: seen by the model, never kept in the history.",
              type: 'string',
              minLength: 1,
              'x-limit': 'maxInstructionChars',
            },
            focus: {
              description: "What the user is looking at (the widget's `getContext()`), for the model.",
              $ref: '#/$defs/FocusContext',
            },
          },
        },
        options: {
          type: 'object',
          properties: {
            modelId: { type: 'string', 'x-limit': 'maxIdChars' },
            reasoningEffort: { $ref: '#/$defs/ReasoningEffort' },
            limits: {
              type: 'object',
              properties: {
                maxCostUsd: {
                  description: 'A decimal string of US dollars: up to 12 digits, then up to 12 decimals.',
                  type: 'string',
                  pattern: '^\\d{1,12}(\\.\\d{1,12})?$',
                },
              },
            },
          },
        },
        browserTools: { $ref: '#/$defs/BrowserTools', 'x-checked-apart': true },
        retryOf: {
          description:
            "The session's latest run, ended `failed` or `cancelled`, that this run answers again (docs/protocol.md §5.2): its messages leave the session's history, so the turn has one user message.",
          type: 'string',
          'x-limit': 'maxIdChars',
        },
        parentMessageId: {
          description:
            "The message the new turn follows (docs/protocol.md §5.2): the last message of a turn on the branch shown, or null for the conversation's start. The turns after it leave the branch shown (they stay, one branch over). Omitted: after the branch's last message.",
          type: ['string', 'null'],
          'x-limit': 'maxIdChars',
        },
      },
    },
    AddInputRequest: {
      description: '`POST /runs/{id}/inputs` body.',
      type: 'object',
      required: ['content'],
      properties: {
        clientMessageId: { $ref: '#/$defs/ClientId' },
        content: { $ref: '#/$defs/Content' },
      },
    },
    DecideInterruptRequest: {
      description: 'An approval or a proposal decided: allow or deny what was shown.',
      type: 'object',
      required: ['decision'],
      properties: {
        decision: { $ref: '#/$defs/ApprovalDecision' },
        argsDigest: {
          description:
            "The interrupt's `argsDigest`, when it has one: the arguments shown (`412 ARGS_DIGEST_MISMATCH` when they are not the ones).",
          type: 'string',
          'x-limit': 'maxIdChars',
        },
        reason: { type: 'string', 'x-limit': 'maxReasonChars' },
        editedArgs: { description: 'The arguments as the user edited them (`approveWithEdits`).' },
      },
    },
    AnswerInterruptRequest: {
      description: 'An input request answered: the answer, as the interrupt asked for it.',
      type: 'object',
      required: ['response'],
      properties: { response: {} },
    },
    ResolveInterruptRequest: {
      description: '`POST /runs/{id}/interrupts/{iid}` body.',
      anyOf: [{ $ref: '#/$defs/DecideInterruptRequest' }, { $ref: '#/$defs/AnswerInterruptRequest' }],
    },
    FeedbackRequest: {
      description:
        "`POST /runs/{id}/feedback` body: the vote on the run's answer `messageId` (a later one replaces it).",
      type: 'object',
      required: ['rating', 'messageId'],
      properties: {
        messageId: { type: 'string' },
        rating: { enum: ['up', 'down'] },
        comment: {
          description: 'Tab and line breaks aside, no control characters.',
          type: 'string',
          'x-limit': 'maxCommentChars',
        },
      },
    },
    CancelRunRequest: {
      description: '`POST /runs/{id}/cancel` body.',
      type: 'object',
      properties: { reason: { type: 'string', 'x-limit': 'maxReasonChars' } },
    },
    ShowBranchRequest: {
      description:
        '`POST /sessions/{id}/branch` body (docs/protocol.md §5.7): the user message of the turn to show. The branch shown becomes the one through that turn last made; answered with the `SessionResource`.',
      type: 'object',
      required: ['messageId'],
      properties: { messageId: { type: 'string', 'x-limit': 'maxIdChars' } },
    },
    RenameSessionRequest: {
      description:
        '`PATCH /sessions/{id}` body: the new title (one line, trimmed, 1–`maxTitleChars` characters, no control characters).',
      type: 'object',
      required: ['title'],
      properties: { title: { type: 'string' } },
    },
    ExecutorId: {
      description: 'An executor of browser tools: 1–64 letters, digits, `_` or `-`.',
      type: 'string',
      pattern: '^[A-Za-z0-9_-]{1,64}$',
    },
    ReceiptKind: {
      description: 'The kinds of receipt an executor sends for the call it claimed, in this order.',
      enum: ['accepted', 'progress', 'completed', 'failed', 'cancelled'],
    },
    ConnectExecutorRequest: {
      description: '`POST /executors/{executorId}/connect` body.',
      type: 'object',
      required: ['tools'],
      properties: {
        tools: {
          description: 'The names of the browser tools this executor runs.',
          type: 'array',
          items: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' },
          'x-limit': 'maxBrowserTools',
          'x-field': 'tools',
        },
      },
    },
    ClaimToolCallRequest: {
      description: '`POST /runs/{runId}/tool-calls/{toolCallId}/claim` body.',
      type: 'object',
      required: ['executorId'],
      properties: { executorId: { $ref: '#/$defs/ExecutorId' } },
    },
    ToolReceiptRequest: {
      description: '`POST /runs/{runId}/tool-calls/{toolCallId}/receipts` body (with `X-Tool-Grant`).',
      type: 'object',
      required: ['executorId', 'receiptId', 'sequence', 'kind'],
      properties: {
        executorId: { $ref: '#/$defs/ExecutorId' },
        receiptId: {
          description: "The executor's id of this receipt (1–128 of `[A-Za-z0-9_.:-]`); the same on every retry of it.",
          type: 'string',
          pattern: '^[A-Za-z0-9_.:-]{1,128}$',
        },
        sequence: {
          description: '0 for `accepted`, then one more per receipt.',
          type: 'integer',
          minimum: 0,
          maximum: 9007199254740991,
        },
        kind: { $ref: '#/$defs/ReceiptKind' },
        message: {
          description: '`progress`: what is happening; `failed`/`cancelled`: why, safe to show.',
          type: 'string',
          'x-limit': 'maxReasonChars',
        },
        fraction: { description: '`progress`: 0..1.', type: 'number', minimum: 0, maximum: 1 },
        result: {
          description: "`completed`: the handler's JSON result (capped at `maxToolResultChars` once serialised).",
        },
      },
    },
    ExecutorReportRequest: {
      description: '`POST /executors/{executorId}/report` body (with `X-Tool-Grant`).',
      type: 'object',
      required: ['runId', 'toolCallId', 'code'],
      properties: {
        runId: { type: 'string', 'x-checked-apart': true },
        toolCallId: { type: 'string', 'x-checked-apart': true },
        code: {
          description:
            '`reconciliation_required`: the executor cannot confirm what its handler did; the call ends `unknown`.',
          const: 'reconciliation_required',
        },
        message: { type: 'string', 'x-limit': 'maxReasonChars' },
      },
    },
    WidgetValues: {
      description: "The values of a form submit, by field name (a checkbox's is a boolean).",
      type: 'object',
      additionalProperties: { type: ['string', 'boolean'] },
    },
    WidgetActionRequest: {
      description: 'The body of `POST /runs/{runId}/widgets/{widgetId}/actions` (docs/protocol.md §11.2).',
      type: 'object',
      required: ['action', 'digest'],
      properties: {
        action: {
          description: "A button's or a form's `action`: 1–64 of `[A-Za-z0-9_.:-]`.",
          type: 'string',
          pattern: '^[A-Za-z0-9_.:-]{1,64}$',
        },
        digest: { description: 'The digest of the widget the user acted on.', type: 'string', maxLength: 100 },
        values: {
          description: "A form's values (at most 20); absent for a button.",
          $ref: '#/$defs/WidgetValues',
          maxProperties: 20,
          'x-field': 'values',
        },
      },
    },
    RunStatus: {
      description:
        "A run's lifecycle state (docs/protocol.md §8); terminal states absorb. `awaiting_tool`: waiting for a browser tool's executor (§19).",
      enum: [
        'queued',
        'running',
        'awaiting_input',
        'awaiting_tool',
        'cancelling',
        'completed',
        'failed',
        'cancelled',
        'expired',
      ],
    },
    CreateRunResponse: {
      description: '`201` of `POST /runs` (and its replay).',
      type: 'object',
      required: ['runId', 'sessionId', 'status', 'lastSeq', 'resumeCursor', 'eventsUrl', 'userMessageId', 'createdAt'],
      properties: {
        runId: { type: 'string' },
        sessionId: { type: 'string' },
        status: { $ref: '#/$defs/RunStatus' },
        lastSeq: { type: 'integer' },
        resumeCursor: { type: 'string' },
        eventsUrl: { type: 'string' },
        userMessageId: { type: 'string' },
        createdAt: { type: 'string' },
      },
    },
    CancelRunResponse: {
      description: "A cancel's answer: `cancelling` with the seq of that event, or the terminal status (no seq).",
      type: 'object',
      required: ['status'],
      properties: { status: { $ref: '#/$defs/RunStatus' }, eventSeq: { type: 'integer' } },
    },
    AddInputResponse: {
      description: '`POST /runs/{id}/inputs` answer.',
      type: 'object',
      required: ['inputId', 'messageId', 'eventSeq'],
      properties: { inputId: { type: 'string' }, messageId: { type: 'string' }, eventSeq: { type: 'integer' } },
    },
    FeedbackResponse: {
      description: '`POST /runs/{id}/feedback` answer: the vote as kept.',
      type: 'object',
      required: ['messageId', 'rating', 'runId', 'updatedAt'],
      properties: {
        messageId: { type: 'string' },
        rating: { enum: ['up', 'down'] },
        comment: { type: 'string' },
        runId: { type: 'string' },
        updatedAt: { type: 'string' },
      },
    },
    ActiveRunRef: {
      description: "A session's run not yet ended.",
      type: 'object',
      required: ['runId', 'status', 'lastSeq'],
      properties: { runId: { type: 'string' }, status: { $ref: '#/$defs/RunStatus' }, lastSeq: { type: 'integer' } },
    },
    SessionResource: {
      description: 'One conversation (`GET /sessions/{id}`, an item of `GET /sessions`).',
      type: 'object',
      required: [
        'sessionId',
        'agentVersionId',
        'title',
        'activeRun',
        'lastRunId',
        'messageCount',
        'createdAt',
        'updatedAt',
      ],
      properties: {
        sessionId: { type: 'string' },
        agentVersionId: { type: 'string' },
        title: {
          description: 'Set by a rename, else made from the first user message (or suggested by the product).',
          type: ['string', 'null'],
        },
        activeRun: { anyOf: [{ $ref: '#/$defs/ActiveRunRef' }, { type: 'null' }] },
        lastRunId: { type: ['string', 'null'] },
        messageCount: {
          description:
            "Settled user and assistant messages plus the active run's user message (the one being answered).",
          type: 'integer',
        },
        createdAt: { type: 'string' },
        updatedAt: {
          description: 'The last activity: when a run last started or ended (a rename does not move it).',
          type: 'string',
        },
      },
    },
    SessionListResponse: {
      description: '`GET /sessions`: latest activity first; `nextAfter` asks for the next page.',
      type: 'object',
      required: ['items', 'nextAfter'],
      properties: {
        items: { type: 'array', items: { $ref: '#/$defs/SessionResource' } },
        nextAfter: { type: ['string', 'null'] },
      },
    },
    ExecutorLeaseResponse: {
      description: '`200` of connect and heartbeat.',
      type: 'object',
      required: ['executorId', 'expiresAt', 'heartbeatSec'],
      properties: {
        executorId: { type: 'string' },
        expiresAt: {
          description: "ISO-8601: without a heartbeat by then, the executor's unstarted claims are released.",
          type: 'string',
        },
        heartbeatSec: { type: 'number' },
      },
    },
    DisconnectExecutorResponse: {
      description: '`200` of disconnect: the claims it released (never one already accepted).',
      type: 'object',
      required: ['released'],
      properties: {
        released: {
          type: 'array',
          items: {
            type: 'object',
            required: ['runId', 'toolCallId'],
            properties: { runId: { type: 'string' }, toolCallId: { type: 'string' } },
          },
        },
      },
    },
    ClaimToolCallResponse: {
      description: '`200` of a claim: the grant to send as `X-Tool-Grant` with every receipt.',
      type: 'object',
      required: ['grant', 'replayed', 'isAccepted', 'receiptSequence', 'expiresAt', 'eventSeq'],
      properties: {
        grant: { type: 'string' },
        replayed: {
          description: 'True when this executor already held the claim (a retry, or a reloaded page).',
          type: 'boolean',
        },
        isAccepted: {
          description: "True when the server has this executor's `accepted` receipt: the handler may have run.",
          type: 'boolean',
        },
        receiptSequence: {
          description: 'The highest receipt sequence applied so far (-1 before `accepted`).',
          type: 'integer',
        },
        expiresAt: { type: 'string' },
        eventSeq: { type: 'integer' },
      },
    },
    ToolReceiptResponse: {
      description: '`200` of a receipt or a report.',
      type: 'object',
      required: ['accepted'],
      properties: {
        accepted: { const: true },
        late: {
          description:
            'The call had already ended without this receipt (expired, cancelled, reported): it was not applied.',
          const: true,
        },
        replayed: { description: 'The same receipt was applied before; nothing changed.', const: true },
        cancelRequested: { description: 'The run is stopping: the executor should abort its handler.', const: true },
        eventSeq: { type: 'integer' },
      },
    },
    WidgetActionResponse: {
      description:
        "`201` of a widget action (and its replay): the run that records it. Its `widget_action` call's result carries the widget as it is now, under the same `widgetId`; follow the run to see it.",
      type: 'object',
      required: ['runId', 'sessionId', 'eventsUrl'],
      properties: { runId: { type: 'string' }, sessionId: { type: 'string' }, eventsUrl: { type: 'string' } },
    },
    EventType: {
      description: 'Every event type the protocol defines, in the order of docs/protocol.md §7.',
      enum: [
        'RUN_STARTED',
        'RUN_STATUS_CHANGED',
        'STEP_STARTED',
        'STEP_FINISHED',
        'TEXT_MESSAGE_START',
        'TEXT_MESSAGE_CONTENT',
        'TEXT_MESSAGE_END',
        'REASONING_START',
        'REASONING_MESSAGE_START',
        'REASONING_MESSAGE_CONTENT',
        'REASONING_MESSAGE_END',
        'REASONING_END',
        'TOOL_CALL_START',
        'TOOL_CALL_ARGS',
        'TOOL_CALL_END',
        'TOOL_CALL_PROGRESS',
        'TOOL_CALL_RESULT',
        'TOOL_CALL_DISPATCHED',
        'TOOL_CALL_CLAIMED',
        'TOOL_CALL_RELEASED',
        'TOOL_CALL_RECEIPT',
        'TOOL_CALL_REPORTED',
        'WIDGET_UPDATED',
        'INTERRUPT_REQUESTED',
        'INTERRUPT_RESOLVED',
        'MESSAGE_DISCARDED',
        'NOTICE',
        'CUSTOM',
        'RUN_FINISHED',
        'RUN_ERROR',
        'MESSAGES_SNAPSHOT',
        'STATE_SNAPSHOT',
        'STATE_DELTA',
      ],
    },
    EventEnvelope: {
      description:
        'One wire event (docs/protocol.md §6.1). Every event is persisted and sequenced before it reaches a socket; `data` is the payload of its `type` (`EventDataMap`).',
      type: 'object',
      required: ['v', 'eventId', 'runId', 'sessionId', 'seq', 'cursor', 'type', 'timestamp', 'data'],
      properties: {
        v: { description: 'The major version of the protocol.', const: 1 },
        eventId: { description: '`evt_` + ULID; stable across replays.', type: 'string' },
        runId: { type: 'string' },
        sessionId: { type: 'string' },
        seq: { description: 'Per run, gapless, from 1: the only ordering authority.', type: 'integer', minimum: 1 },
        cursor: { description: 'Opaque; equal to the SSE `id:`. Clients never build cursors.', type: 'string' },
        type: { $ref: '#/$defs/EventType' },
        timestamp: { description: 'Epoch milliseconds at append (server clock).', type: 'integer' },
        data: { type: 'object' },
      },
    },
  },
} as const;
