/** Turning schema-validation results (ajv errors) into the API's plain-language messages. */
import type { RowError } from './errors';

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, any>;
}

/** `/matches/3/asin` -> `matches[3].asin` */
export function fieldPath(instancePath: string, extra?: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  return parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}

export function describeError(e: AjvError, where = 'body'): string {
  const prefix = where === 'querystring' ? 'query parameter ' : '';
  switch (e.keyword) {
    case 'required':
      return `${prefix}${fieldPath(e.instancePath, e.params.missingProperty)} is required`;
    case 'additionalProperties':
      return `${prefix}${fieldPath(e.instancePath, e.params.additionalProperty)} is not allowed here`;
    case 'type':
      return `${prefix}${fieldPath(e.instancePath) || 'the body'} must be ${e.params.type === 'integer' ? 'an integer' : `a${/^[aeiou]/.test(String(e.params.type)) ? 'n' : ''} ${e.params.type}`}`;
    case 'enum':
      return `${prefix}${fieldPath(e.instancePath)} must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${prefix}${fieldPath(e.instancePath) || 'the body'} ${e.message ?? 'is invalid'}`;
  }
}

/** One message naming every problem (non-bulk endpoints). */
export function describeValidation(errors: AjvError[], where: string): string {
  const texts = [...new Set(errors.map((e) => describeError(e, where)))];
  return `Invalid request: ${texts.join('; ')}.`;
}

/**
 * Splits schema errors of a bulk body into row errors (under `/<rowsField>/<index>/...`) and
 * request-level messages (everything else).
 */
export function splitBulkErrors(errors: AjvError[], rowsField: string): { rows: RowError[]; request: string[] } {
  const rows: RowError[] = [];
  const request: string[] = [];
  const prefix = `/${rowsField}/`;
  for (const e of errors) {
    if (e.instancePath.startsWith(prefix)) {
      const [index, ...rest] = e.instancePath.slice(prefix.length).split('/');
      const field =
        e.keyword === 'required'
          ? e.params.missingProperty
          : e.keyword === 'additionalProperties'
            ? e.params.additionalProperty
            : rest.join('.') || 'value';
      const text = describeError(e);
      rows.push({ index: Number(index), field: String(field), message: text.charAt(0).toUpperCase() + text.slice(1) + '.' });
    } else {
      request.push(describeError(e));
    }
  }
  return { rows, request: [...new Set(request)] };
}
