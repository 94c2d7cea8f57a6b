/** The conversations panel's texts; `{title}` and `{count}` are filled in. */
export interface ConversationsStrings {
  heading: string;
  close: string;
  newConversation: string;
  untitled: string;
  messages: string;
  /** The count when it is 1 (`{count}` filled in); `messages` when not given. */
  oneMessage?: string;
  answering: string;
  rename: string;
  renameLabel: string;
  save: string;
  cancel: string;
  delete: string;
  deleteQuestion: string;
  deleteConfirm: string;
  deleteBlocked: string;
  loadMore: string;
  loading: string;
  empty: string;
}

/** English, the default. */
export const CONVERSATIONS_EN: ConversationsStrings = {
  heading: 'Conversations',
  close: 'Close conversations',
  newConversation: 'New conversation',
  untitled: 'Untitled conversation',
  messages: '{count} messages',
  oneMessage: '{count} message',
  answering: 'Answering…',
  rename: 'Rename “{title}”',
  renameLabel: 'New title',
  save: 'Save',
  cancel: 'Cancel',
  delete: 'Delete “{title}”',
  deleteQuestion: 'Delete “{title}”? This cannot be undone.',
  deleteConfirm: 'Delete',
  deleteBlocked: 'Stop the answer first to delete this conversation.',
  loadMore: 'Show older conversations',
  loading: 'Loading conversations…',
  empty: 'No conversations yet.',
};

/** Simplified Chinese. */
export const CONVERSATIONS_ZH_CN: ConversationsStrings = {
  heading: '对话',
  close: '关闭对话列表',
  newConversation: '新对话',
  untitled: '未命名对话',
  messages: '{count} 条消息',
  answering: '正在回答…',
  rename: '重命名“{title}”',
  renameLabel: '新标题',
  save: '保存',
  cancel: '取消',
  delete: '删除“{title}”',
  deleteQuestion: '删除“{title}”？此操作无法撤销。',
  deleteConfirm: '删除',
  deleteBlocked: '请先停止回答，再删除此对话。',
  loadMore: '显示更早的对话',
  loading: '正在加载对话…',
  empty: '还没有对话。',
};

/** The panel's strings for a BCP 47 locale: Simplified Chinese for `zh-CN`/`zh-Hans`/`zh`, else English. */
export function conversationsStringsFor(locale: string | undefined): ConversationsStrings {
  return /^zh(-cn|-hans|-sg)?\b/i.test(locale ?? '') ? CONVERSATIONS_ZH_CN : CONVERSATIONS_EN;
}

/** Replaces `{name}` placeholders of `text` with `values`. */
export function fillIn(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (match, name: string) => String(values[name] ?? match));
}
