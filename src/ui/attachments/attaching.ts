import type { AgentClient, ContextRef } from '../../core/index.ts';

/**
 * The product's own upload (mount option `uploadAttachment`): resolves with the reference that goes
 * with the message; `onProgress` takes the uploaded share in [0, 1].
 */
export type UploadToProduct = (
  file: File,
  options: { signal: AbortSignal; onProgress: (fraction: number) => void },
) => Promise<ContextRef>;

/** The widget's options that decide attaching, read at each use (so a change applies at once): the element's own properties. */
export interface AttachingOptions {
  client: AgentClient | undefined;
  /** `false`: no files, even when the server keeps them. */
  attachments: boolean | undefined;
  uploadAttachment: UploadToProduct | undefined;
  /** The product's reference picker: the attach button opens it instead of the file picker. */
  selectAttachments: (() => Promise<ContextRef[]>) | undefined;
  /** BCP 47: how sizes are written. */
  locale: string;
}

/**
 * Where attached files go: the product's storage when it uploads them itself, else the server when
 * bootstrap says it keeps files; undefined when files are not offered (`attachments: false`, or
 * neither keeps them).
 */
export function findFileDestination(options: AttachingOptions): 'product' | 'server' | undefined {
  if (options.attachments === false) return undefined;
  if (options.uploadAttachment) return 'product';
  return options.client?.getState().bootstrap?.capabilities.attachments?.supported ? 'server' : undefined;
}
