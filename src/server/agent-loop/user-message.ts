import type { ModelImage, ModelMessage } from '../models/model-adapter.ts';
import type { RunHandle } from '../runs/run-handle.ts';
import { isImageType } from '../attachments/verify-media-type.ts';

/**
 * The run's user message for the model: its text, and its attached images (read now through
 * `handle.readAttachment`) as image parts. An image that is gone by then (its conversation was
 * deleted meanwhile) is named in a line after the text instead. Text files are not here: they are
 * the attachments layer.
 */
export async function buildUserMessage(handle: RunHandle): Promise<ModelMessage> {
  const images: ModelImage[] = [];
  const missing: string[] = [];
  for (const file of handle.input.files ?? []) {
    if (!isImageType(file.mediaType)) continue;
    const bytes = (await handle.readAttachment?.(file.attachmentId)) ?? null;
    if (bytes === null) missing.push(file.name);
    else images.push({ mediaType: file.mediaType, base64: Buffer.from(bytes).toString('base64') });
  }
  const note = missing.length === 0 ? '' : `\n\n[Attached images no longer available: ${missing.join(', ')}]`;
  return images.length === 0
    ? { role: 'user', content: `${handle.input.text}${note}` }
    : { role: 'user', content: `${handle.input.text}${note}`, images };
}
