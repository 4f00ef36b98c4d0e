// Field errors as apimachinery's field.Error formats them, and the 422 Invalid
// StoreError the API server builds from a list of them (StatusError NewInvalid).

import { StoreError } from '../store.ts';

export type FieldErrorType = 'Required' | 'Invalid' | 'Forbidden' | 'NotSupported' | 'Duplicate' | 'NotFound' | 'TooLong';

export interface FieldError {
  type: FieldErrorType;
  field: string;
  /** The offending value (Invalid, NotSupported, Duplicate, NotFound). */
  value?: unknown;
  detail?: string;
}

const REASON: Record<FieldErrorType, string> = {
  Required: 'FieldValueRequired',
  Invalid: 'FieldValueInvalid',
  Forbidden: 'FieldValueForbidden',
  NotSupported: 'FieldValueNotSupported',
  Duplicate: 'FieldValueDuplicate',
  NotFound: 'FieldValueNotFound',
  TooLong: 'FieldValueTooLong',
};

const LABEL: Record<FieldErrorType, string> = {
  Required: 'Required value',
  Invalid: 'Invalid value',
  Forbidden: 'Forbidden',
  NotSupported: 'Unsupported value',
  Duplicate: 'Duplicate value',
  NotFound: 'Not found',
  TooLong: 'Too long',
};

export const required = (field: string, detail?: string): FieldError => ({ type: 'Required', field, detail });
export const forbidden = (field: string, detail: string): FieldError => ({ type: 'Forbidden', field, detail });
export const invalid = (field: string, value: unknown, detail: string): FieldError => ({ type: 'Invalid', field, value, detail });
export const duplicate = (field: string, value: unknown): FieldError => ({ type: 'Duplicate', field, value });
export const notFound = (field: string, value: unknown): FieldError => ({ type: 'NotFound', field, value });
export const notSupported = (field: string, value: unknown, valid: readonly string[]): FieldError => ({
  type: 'NotSupported',
  field,
  value,
  detail: valid.length ? `supported values: ${valid.map(v => JSON.stringify(v)).join(', ')}` : undefined,
});

/** Go's %v-ish rendering of a value, as field.Error prints it (strings quoted). */
function renderValue(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]${typeof v[0] === 'string' ? 'string' : 'interface {}'}{${v.map(renderValue).join(', ')}}`;
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.every(([, x]) => typeof x === 'string'))
      return `map[string]string{${entries.map(([k, x]) => `${JSON.stringify(k)}:${JSON.stringify(x)}`).join(', ')}}`;
    return JSON.stringify(v);
  }
  return String(v);
}

/** The part after "<field>: ", e.g. `Invalid value: "a:b": a valid environment ...`. */
export function errorBody(e: FieldError): string {
  let s = LABEL[e.type];
  if (e.type === 'Invalid' || e.type === 'NotSupported' || e.type === 'Duplicate' || e.type === 'NotFound') s += `: ${renderValue(e.value)}`;
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

export const formatError = (e: FieldError): string => `${e.field}: ${errorBody(e)}`;

/** NewInvalid: `<Kind[.group]> "<name>" is invalid: <err>` or `[<err>, <err>]`, duplicates dropped. */
export function invalidError(kind: string, group: string, name: string, errs: FieldError[]): StoreError {
  const msgs = [...new Set(errs.map(formatError))];
  const qualified = group ? `${kind}.${group}` : kind;
  const text = msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`;
  return new StoreError(422, 'Invalid', `${qualified} ${JSON.stringify(name)} is invalid: ${text}`, {
    name,
    group: group || undefined,
    kind,
    causes: errs.map(e => ({ reason: REASON[e.type], message: errorBody(e), field: e.field })),
  });
}
