/** One RFC 6902 operation, as AG-UI's `STATE_DELTA` carries it. */
export type JsonPatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

/** Thrown when a patch does not apply (a missing path, a failed `test`, a malformed pointer). */
export class JsonPatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPatchError';
  }
}

type Container = Record<string, unknown> | unknown[];

/**
 * Applies an RFC 6902 JSON Patch to a copy of `document` and returns the copy; `document` is never
 * changed. All or nothing: any failing operation throws {@link JsonPatchError}.
 */
export function applyJsonPatch(document: unknown, operations: readonly JsonPatchOperation[]): unknown {
  let root = structuredClone(document);
  for (const operation of operations) {
    switch (operation.op) {
      case 'add':
        root = put(root, operation.path, structuredClone(operation.value), 'add');
        break;
      case 'replace':
        root = put(root, operation.path, structuredClone(operation.value), 'replace');
        break;
      case 'remove':
        root = remove(root, operation.path).root;
        break;
      case 'move': {
        const taken = remove(root, operation.from);
        root = put(taken.root, operation.path, taken.value, 'add');
        break;
      }
      case 'copy':
        root = put(root, operation.path, structuredClone(read(root, operation.from)), 'add');
        break;
      case 'test':
        if (JSON.stringify(read(root, operation.path)) !== JSON.stringify(operation.value))
          throw new JsonPatchError(`test failed at ${operation.path}`);
        break;
    }
  }
  return root;
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPatchError(`not a JSON pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** The container holding the pointer's last token, and that token. */
function locate(root: unknown, pointer: string): { parent: Container; key: string } {
  const tokens = parsePointer(pointer);
  const key = tokens.pop() as string;
  let node = root;
  for (const token of tokens) node = child(node, token);
  if (typeof node !== 'object' || node === null) throw new JsonPatchError(`no container at ${pointer}`);
  return { parent: node as Container, key };
}

function child(node: unknown, token: string): unknown {
  if (Array.isArray(node)) return node[arrayIndex(node, token, false)];
  if (typeof node === 'object' && node !== null && Object.hasOwn(node, token))
    return (node as Record<string, unknown>)[token];
  throw new JsonPatchError(`no member ${token}`);
}

function arrayIndex(array: readonly unknown[], token: string, isInsert: boolean): number {
  if (isInsert && token === '-') return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new JsonPatchError(`not an array index: ${token}`);
  const index = Number(token);
  if (index > array.length || (!isInsert && index === array.length))
    throw new JsonPatchError(`index ${token} out of range`);
  return index;
}

function read(root: unknown, pointer: string): unknown {
  return parsePointer(pointer).reduce(child, root);
}

function put(root: unknown, pointer: string, value: unknown, mode: 'add' | 'replace'): unknown {
  if (pointer === '') return value;
  const { parent, key } = locate(root, pointer);
  if (Array.isArray(parent)) {
    const index = arrayIndex(parent, key, mode === 'add');
    parent.splice(index, mode === 'add' ? 0 : 1, value);
  } else {
    if (mode === 'replace' && !Object.hasOwn(parent, key)) throw new JsonPatchError(`no member ${key} to replace`);
    parent[key] = value;
  }
  return root;
}

function remove(root: unknown, pointer: string): { root: unknown; value: unknown } {
  if (pointer === '') throw new JsonPatchError('cannot remove the whole document');
  const { parent, key } = locate(root, pointer);
  if (Array.isArray(parent)) {
    const [value] = parent.splice(arrayIndex(parent, key, false), 1);
    return { root, value };
  }
  if (!Object.hasOwn(parent, key)) throw new JsonPatchError(`no member ${key} to remove`);
  const value = parent[key];
  delete parent[key];
  return { root, value };
}
