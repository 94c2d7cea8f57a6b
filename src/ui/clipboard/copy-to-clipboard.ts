/**
 * Copies `text` to the system clipboard; resolves true once copied, false when the page has no
 * clipboard (an insecure context) or the browser refused (no permission, no focus). Never rejects.
 */
export async function copyToClipboard(text: string): Promise<boolean> {
  if (typeof navigator === 'undefined' || !navigator.clipboard) return false;
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
