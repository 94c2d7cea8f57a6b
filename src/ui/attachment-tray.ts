import type { CSSResult, TemplateResult } from 'lit';
import type { AttachmentLimits, ContextRef } from '../core/index.ts';
import { findFileDestination, type AttachingOptions, type UploadToProduct } from './attachments/attaching.ts';
import { checkFile, mediaTypeOf } from './attachments/check-file.ts';
import {
  countFiles,
  isTrayBlocking,
  reduceTray,
  trayPayload,
  type FileProblem,
  type MessageFiles,
  type StoredFile,
  type TrayAction,
  type TrayFile,
  type TrayItem,
} from './attachments/tray-state.ts';
import type { SiblingTemplating } from './card-templating.ts';
import type { AgentChatStrings } from './i18n/en.ts';
import { EN_COMPOSER_EXTRAS_STRINGS } from './i18n/en-composer-extras.ts';
import { formatString } from './i18n/resolve-strings.ts';

/** The composer's side of the tray. */
export interface TrayHost {
  /** The widget's options, read at each use (so a change applies at once). */
  read(): AttachingOptions;
  /** Renders the composer again: the tray changed. */
  requestUpdate(): void;
  /** Gives focus back to the text field (a chip's button it was on is gone). */
  focusInput(): void;
}

/** The files and references waiting in the composer for the next send. */
export interface AttachmentTray {
  readonly items: readonly TrayItem[];
  /** The attach button: the product's picker, or the browser's file picker. */
  renderButton(strings: AgentChatStrings): TemplateResult;
  /** The chips above the text field; undefined (nothing to render) while the tray is empty. */
  renderChips(strings: AgentChatStrings): TemplateResult | undefined;
  /** Checks each file against the limits, then uploads it (refused ones stay as failed chips, saying why). */
  addFiles(files: Iterable<File>): void;
  /** A paste that carries files (a screenshot from the clipboard) adds them instead of pasting. */
  onPaste(event: ClipboardEvent): void;
  /** Accepts a drag of files over the widget. */
  onDragOver(event: DragEvent): void;
  /** Adds the files dropped on the widget. */
  onDrop(event: DragEvent): void;
  /** Whether Send waits: an upload is running, or a failed file has not been removed. */
  isBlocking(): boolean;
  /**
   * What the next send names, and `sent`, to call once the server accepted it: the chips it
   * carried go (the message shows its files from then on); chips added meanwhile stay.
   */
  prepareSend(): { files: MessageFiles; sent(): void };
}

/** Uploads one file to where files go now, resolving with where it went. */
type Upload = (file: File, options: Parameters<UploadToProduct>[1]) => Promise<StoredFile>;

/** The strings the tray renders with: the widget's, over the extras' own English defaults. */
type TrayStrings = typeof EN_COMPOSER_EXTRAS_STRINGS & AgentChatStrings;

const FILE_ICON = 'M6 3h8l4 4v14H6zM14 3v4h4';
const PAPERCLIP = 'M8 12.5l6.5-6.5a3 3 0 0 1 4.2 4.2l-8 8a5 5 0 0 1-7-7l7.5-7.5';

/**
 * Creates the composer's attachment tray (part of the sibling file
 * `agent-chat.composer-extras.js`): chips for picked references and for files picked, pasted or
 * dropped, each file checked against the bootstrap limits, uploaded at once with its progress,
 * cancellable and removable, with a thumbnail for images where the page's CSP allows `blob:`
 * images (a file icon otherwise). Everything renders through `templating`.
 */
export function createAttachmentTray(templating: SiblingTemplating, host: TrayHost): AttachmentTray {
  const { html, nothing, renderVisibleText } = templating;
  const icon = (path: string) =>
    html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d=${path}></path></svg>`;
  let items: TrayItem[] = [];
  let nextKey = 0;
  const uploads = new Map<string, AbortController>();
  /** Object URLs of image files, while their chip shows; a URL the page's CSP refuses is dropped for the icon. */
  const previews = new Map<string, string>();

  const dispatch = (action: TrayAction): void => {
    items = reduceTray(items, action);
    host.requestUpdate();
  };

  /** Where files go now: the product's storage, else the server's; undefined while files are not offered. */
  function findUpload(): Upload | undefined {
    const options = host.read();
    const { client, uploadAttachment } = options;
    const destination = findFileDestination(options);
    if (destination === 'product' && uploadAttachment)
      return (file, progress) => uploadAttachment(file, progress).then((reference) => ({ reference }));
    if (destination === 'server' && client)
      return (file, { signal }) =>
        client.uploadAttachment(file, { name: file.name, signal }).then((attachment) => ({ attachment }));
    return undefined;
  }

  /** The server's attachment limits from bootstrap, checked before any upload (each absent one is not). */
  const readLimits = (): Partial<AttachmentLimits> => host.read().client?.getState().bootstrap?.limits ?? {};

  function addFile(file: File, upload: Upload): void {
    const key = `file:${(nextKey += 1)}`;
    const mediaType = mediaTypeOf(file);
    const entry = { key, name: file.name || mediaType, size: file.size, mediaType };
    const limits = readLimits();
    const refused = checkFile(entry, limits, countFiles(items));
    if (refused) {
      const limit = refused.limit === 'attachmentTypes' ? undefined : limits[refused.limit];
      dispatch({ type: 'fileAdded', file: entry, problem: { code: refused.code, limit } });
      return;
    }
    if (mediaType.startsWith('image/')) previews.set(key, URL.createObjectURL(file));
    dispatch({ type: 'fileAdded', file: entry });
    const controller = new AbortController();
    uploads.set(key, controller);
    // The bytes go with the type the server checks them against (a `.ts` is TypeScript, not video).
    const typed = file.type === mediaType ? file : new File([file], entry.name, { type: mediaType });
    upload(typed, {
      signal: controller.signal,
      onProgress: (progress) => dispatch({ type: 'uploadProgressed', key, progress }),
    })
      .then(
        (stored) => dispatch({ type: 'uploadFinished', key, stored }),
        (error: unknown) => {
          if (!controller.signal.aborted) dispatch({ type: 'uploadFailed', key, problem: problemOf(error, limits) });
        },
      )
      .finally(() => uploads.delete(key));
  }

  function remove(key: string): void {
    uploads.get(key)?.abort();
    uploads.delete(key);
    dropPreview(key);
    dispatch({ type: 'removed', key });
    host.focusInput();
  }

  function dropPreview(key: string): void {
    const url = previews.get(key);
    if (url !== undefined) URL.revokeObjectURL(url);
    previews.delete(key);
  }

  function pickFiles(): void {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    const types = readLimits().attachmentTypes;
    if (types) input.accept = types.join(',');
    input.addEventListener('change', () => tray.addFiles(input.files ?? []));
    input.click();
  }

  async function pickReferences(select: () => Promise<ContextRef[]>): Promise<void> {
    dispatch({ type: 'referencesPicked', references: await select() });
  }

  function formatBytes(bytes: number): string {
    const [value, unit] =
      bytes >= 1e6 ? [bytes / 1e6, 'megabyte'] : bytes >= 1e3 ? [bytes / 1e3, 'kilobyte'] : [bytes, 'byte'];
    return new Intl.NumberFormat(host.read().locale, { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
  }

  /** What a chip says of its file's problem. */
  function describeProblem(item: TrayFile, problem: FileProblem, text: TrayStrings): string {
    const { code, limit = 0, reason = code } = problem;
    if (code === 'PAYLOAD_TOO_LARGE') return formatString(text.attachmentTooLarge, { max: formatBytes(limit) });
    if (code === 'ATTACHMENT_TYPE_UNSUPPORTED')
      return formatString(text.attachmentTypeUnsupported, { type: item.mediaType });
    if (code === 'ATTACHMENT_QUOTA_EXCEEDED') return text.attachmentQuotaExceeded;
    if (code === 'VALIDATION_FAILED' && problem.limit !== undefined)
      return formatString(text.attachmentTooMany, { max: limit });
    return formatString(text.attachmentFailed, { reason });
  }

  function renderThumbnail(item: TrayFile): TemplateResult {
    const url = previews.get(item.key);
    return url === undefined
      ? html`<span class="file-thumb">${icon(FILE_ICON)}</span>`
      : html`<img class="file-thumb" alt="" src=${url} @error=${() => {
          dropPreview(item.key);
          host.requestUpdate();
        }}>`;
  }

  function renderFile(item: TrayFile, text: TrayStrings): TemplateResult {
    const isUploading = item.status === 'uploading';
    const label = formatString(isUploading ? text.cancelUpload : text.removeAttachment, { title: item.name });
    const { problem } = item;
    return html`<li class="attachment chip file-chip" data-status=${item.status} data-code=${problem?.code ?? nothing}>
      ${renderThumbnail(item)}
      <span class="file-text">
        <span class="file-name" dir="auto">${renderVisibleText(item.name, true)}</span>
        ${
          problem
            ? html`<span class="file-problem" role="alert">${describeProblem(item, problem, text)}</span>`
            : html`<span class="muted">${formatBytes(item.size)}</span>`
        }
        ${
          isUploading
            ? html`<progress aria-label=${formatString(text.attachmentUploading, { title: item.name })} max="1" value=${item.progress ?? nothing}></progress>`
            : nothing
        }
      </span>
      <button type="button" class="attachment-remove" aria-label=${label} title=${label} @click=${() => remove(item.key)}>×</button>
    </li>`;
  }

  const tray: AttachmentTray = {
    get items() {
      return items;
    },
    renderButton(strings) {
      const label = { ...EN_COMPOSER_EXTRAS_STRINGS, ...strings }.attach;
      const onClick = () => {
        const select = host.read().selectAttachments;
        // A picker that rejects (closed without a choice) adds nothing.
        if (select) pickReferences(select).catch(() => undefined);
        else if (findUpload()) pickFiles();
      };
      return html`<button type="button" part="attach-button" class="attach-button" aria-label=${label} title=${label} @click=${onClick}>${icon(PAPERCLIP)}</button>`;
    },
    renderChips(strings) {
      if (items.length === 0) return undefined;
      const text = { ...EN_COMPOSER_EXTRAS_STRINGS, ...strings };
      return html`<ul class="attachments chips">
        ${items.map((item) => {
          if (item.kind === 'file') return renderFile(item, text);
          const title = item.reference.title ?? item.reference.ref;
          const label = formatString(text.removeAttachment, { title });
          return html`<li class="attachment chip">
            <span dir="auto">${renderVisibleText(title, true)}</span>
            <button type="button" class="attachment-remove" aria-label=${label} title=${label} @click=${() => remove(item.key)}>×</button>
          </li>`;
        })}
      </ul>`;
    },
    addFiles(files) {
      const upload = findUpload();
      if (upload) for (const file of files) addFile(file, upload);
    },
    onPaste(event) {
      const files = [...(event.clipboardData?.files ?? [])];
      if (files.length === 0 || !findUpload()) return;
      event.preventDefault();
      tray.addFiles(files);
    },
    onDragOver(event) {
      if (!findUpload() || !event.dataTransfer?.types.includes('Files')) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      showDropTarget(event.currentTarget as HTMLElement | null);
    },
    onDrop(event) {
      if (!findUpload() || !event.dataTransfer?.files.length) return;
      event.preventDefault();
      tray.addFiles(event.dataTransfer.files);
    },
    isBlocking: () => isTrayBlocking(items),
    prepareSend() {
      const keys = items.map((item) => item.key);
      return {
        files: trayPayload(items),
        sent() {
          for (const key of keys) dropPreview(key);
          dispatch({ type: 'sent', keys });
        },
      };
    },
  };
  return tray;
}

/** The problem of a failed upload: its code, and the limit it names when it is one the tray words. */
function problemOf(error: unknown, limits: Partial<AttachmentLimits>): FileProblem {
  // A product's upload may reject with anything, nothing included.
  const { code = 'NETWORK_ERROR', message = String(error) } = (error ?? {}) as { code?: string; message?: string };
  return { code, reason: message, ...(code === 'PAYLOAD_TOO_LARGE' ? { limit: limits.maxAttachmentBytes } : {}) };
}

/**
 * Marks `target` (the widget's content) as where dropped files go, `data-drop-target`, until the
 * drag leaves it for somewhere outside it, or the files are dropped.
 */
function showDropTarget(target: HTMLElement | null): void {
  if (target === null || target.hasAttribute('data-drop-target')) return;
  target.setAttribute('data-drop-target', '');
  const end = (event: DragEvent): void => {
    if (event.type === 'dragleave' && target.contains(event.relatedTarget as Node | null)) return;
    target.removeAttribute('data-drop-target');
    target.removeEventListener('dragleave', end);
    target.removeEventListener('drop', end);
  };
  target.addEventListener('dragleave', end);
  target.addEventListener('drop', end);
}

/** The tray's styles: its button, its chips, and the widget while files are dragged over it. */
export function trayStyles(css: SiblingTemplating['css']): CSSResult {
  return css`
    .content[data-drop-target] {
      outline: 2px dashed var(--agent-chat-color-focus);
      outline-offset: -4px;
    }
    .attach-button {
      padding: 0;
      width: 32px;
      border: 0;
    }
    .attachment {
      padding: 0 0 0 var(--agent-chat-space-m);
    }
    .attachment-remove {
      border: 0;
      background: transparent;
      padding: 0 var(--agent-chat-space-m);
    }
    .file-chip {
      display: flex;
      align-items: center;
      gap: var(--agent-chat-space-s);
      max-width: 100%;
    }
    .file-thumb {
      flex: none;
      width: 32px;
      height: 32px;
      border-radius: var(--agent-chat-radius-small);
      object-fit: cover;
      display: grid;
      place-items: center;
      background: var(--agent-chat-color-surface);
    }
    .file-text {
      display: grid;
      min-width: 0;
      font-size: var(--agent-chat-font-size-small);
    }
    .file-name {
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .file-problem {
      color: var(--agent-chat-color-danger);
    }
    .file-chip progress {
      width: 100%;
      height: 4px;
      accent-color: var(--agent-chat-color-accent);
    }
    .file-chip[data-status='failed'] {
      border-color: var(--agent-chat-color-danger);
    }
  `;
}
