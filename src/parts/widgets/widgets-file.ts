/**
 * The script-tag widgets file `dist/agent-chat.widgets.js`: sets
 * `window.AgentChatWidgets = { defineWidgetElement }`. A part file (src/parts/part-table.ts): the
 * tool cards file fetches it with its integrity when a card first shows a widget, and the widget
 * renders with the widget's own Lit, so this file holds no Lit and creates no Trusted Types policy.
 */
import type {} from './widgets-global.ts';
import { defineWidgetElement } from '../../ui/widgets.ts';

window.AgentChatWidgets = Object.freeze({ defineWidgetElement });
