/**
 * The widgets' module: the `<agent-chat-widget>` renderer of declarative widgets (docs/widgets.md),
 * which only hosts whose tools answer with widgets need. A file of its own, loaded by the tool
 * card that first shows a widget: a chunk of the ESM build, the sibling file
 * `agent-chat.widgets.js` of the script tag's.
 */
export { defineWidgetElement } from './widgets/widget-element.ts';
