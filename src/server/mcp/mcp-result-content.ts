/**
 * Turns an MCP `tools/call` result's content into the tool result text the model and the card
 * get: text as it is; an embedded text resource as its text; an image, audio or binary resource
 * as a one-line note of its type and size (their bytes are never forwarded: the card shows no MCP
 * image); a resource link as its URI; `structuredContent` as JSON when there is no content. Parts
 * are joined by blank lines. The engine then caps it at `maxResultChars`.
 */
export function readMcpResultContent(result: Record<string, unknown>): string {
  const content = Array.isArray(result['content']) ? (result['content'] as unknown[]) : [];
  const parts = content.map(describePart).filter((part) => part !== '');
  if (parts.length === 0 && result['structuredContent'] !== undefined)
    return JSON.stringify(result['structuredContent']);
  return parts.join('\n\n');
}

function describePart(part: unknown): string {
  if (typeof part !== 'object' || part === null) return '';
  const fields = part as Record<string, unknown>;
  switch (fields['type']) {
    case 'text':
      return typeof fields['text'] === 'string' ? fields['text'] : '';
    case 'image':
    case 'audio':
      return `[${String(fields['type'])} ${String(fields['mimeType'] ?? '')}, ${base64Bytes(fields['data'])} bytes, not shown]`;
    case 'resource': {
      const resource = (fields['resource'] ?? {}) as Record<string, unknown>;
      if (typeof resource['text'] === 'string') return resource['text'];
      return `[resource ${String(resource['uri'] ?? '')} (${String(resource['mimeType'] ?? 'binary')}), ${base64Bytes(resource['blob'])} bytes, not shown]`;
    }
    case 'resource_link':
      return `[resource link ${String(fields['uri'] ?? '')}${typeof fields['name'] === 'string' ? ` "${fields['name']}"` : ''}]`;
    default:
      return '';
  }
}

function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
