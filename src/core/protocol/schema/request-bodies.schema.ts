/**
 * The request bodies of the wire contract (docs/protocol.md §5, §12, §16.2), as one JSON Schema
 * (draft 2020-12): the single source from which `npm run generate:contract` writes the TypeScript
 * types (`src/core/protocol/generated/request-bodies.ts`) and the Python client's typed dicts
 * (`clients/python/agent_chat_client/_contract.py`), and which the server compiles to validate
 * every body (`src/server/operations/request-body-validators.ts`).
 *
 * Plain data, no library: the browser imports only the generated types. Besides JSON Schema it
 * uses three annotations the server reads:
 * - `x-limit`: the `Limits` member that bounds a string's characters or an array's entries; the
 *   server sets `maxLength`/`maxItems` from its configured limits and answers
 *   `422 VALIDATION_FAILED` with `details: {field, limit, <limit>, actual}`.
 * - `x-field`: the `details.field` an error at or under this member names (default: its path,
 *   `input.contextRefs[1].ref`).
 * - `x-checked-apart`: a member the server checks with code of its own, only when the part that
 *   uses it is on (attachments, browser tools), so its validator leaves it out.
 */
export const REQUEST_BODIES_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://agent-chat.dev/schema/v1/request-bodies.json',
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
  },
} as const;
