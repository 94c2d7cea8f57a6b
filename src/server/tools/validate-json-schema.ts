/**
 * Checks `value` against a small JSON Schema subset and returns the problems found (empty when
 * valid). Supported: `type` (object, string, number, integer, boolean, array, null), `required`,
 * `properties`, `additionalProperties: false`, `items`, `enum`, `minLength`/`maxLength`,
 * `minimum`/`maximum`. Other keywords are ignored. Messages name the path (`$.orderId`).
 */
export function validateJsonSchema(schema: Record<string, unknown>, value: unknown, path = '$'): string[] {
  const errors: string[] = [];
  const type = schema['type'];
  if (typeof type === 'string' && !matchesType(type, value)) {
    errors.push(`${path} must be ${article(type)} ${type}`);
    return errors;
  }
  const allowed = schema['enum'];
  if (Array.isArray(allowed) && !allowed.some((option) => Object.is(option, value))) {
    errors.push(`${path} must be one of ${allowed.map((option) => JSON.stringify(option)).join(', ')}`);
  }
  if (typeof value === 'string') checkString(schema, value, path, errors);
  if (typeof value === 'number') checkNumber(schema, value, path, errors);
  if (Array.isArray(value)) {
    const items = schema['items'];
    if (isRecord(items))
      value.forEach((item, index) => errors.push(...validateJsonSchema(items, item, `${path}[${index}]`)));
  } else if (isRecord(value)) {
    checkObject(schema, value, path, errors);
  }
  return errors;
}

function checkString(schema: Record<string, unknown>, value: string, path: string, errors: string[]): void {
  const length = [...value].length;
  const min = schema['minLength'];
  const max = schema['maxLength'];
  if (typeof min === 'number' && length < min) errors.push(`${path} must have at least ${min} characters`);
  if (typeof max === 'number' && length > max) errors.push(`${path} must have at most ${max} characters`);
}

function checkNumber(schema: Record<string, unknown>, value: number, path: string, errors: string[]): void {
  const min = schema['minimum'];
  const max = schema['maximum'];
  if (typeof min === 'number' && value < min) errors.push(`${path} must be at least ${min}`);
  if (typeof max === 'number' && value > max) errors.push(`${path} must be at most ${max}`);
}

function checkObject(
  schema: Record<string, unknown>,
  value: Record<string, unknown>,
  path: string,
  errors: string[],
): void {
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required']) ? schema['required'] : [];
  for (const name of required) {
    if (typeof name === 'string' && !(name in value)) errors.push(`${path}.${name} is required`);
  }
  for (const [name, propertyValue] of Object.entries(value)) {
    const propertySchema = properties[name];
    if (isRecord(propertySchema)) errors.push(...validateJsonSchema(propertySchema, propertyValue, `${path}.${name}`));
    else if (schema['additionalProperties'] === false) errors.push(`${path}.${name} is not allowed`);
  }
}

function matchesType(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return isRecord(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return true;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? 'an' : 'a';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
