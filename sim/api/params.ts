// Query parameters converted as the API server's parameter codec converts them
// (k8s.io/apimachinery runtime.Convert_Slice_string_To_*): a bool is false when absent,
// "0" or "false" in any case, and true for every other value (the empty string too);
// integers go through strconv.ParseInt and a malformed one is a 400 naming it.

import { ApiError } from './status.ts';

/** Convert_Slice_string_To_bool: absent → false; "0" or case-insensitive "false" → false; else true. */
export function boolParam(q: URLSearchParams, key: string): boolean {
  const v = q.get(key);
  if (v === null) return false;
  return !(v === '0' || v.toLowerCase() === 'false');
}

/** Convert_Slice_string_To_Pointer_bool: undefined when absent. */
export function optionalBoolParam(q: URLSearchParams, key: string): boolean | undefined {
  return q.has(key) ? boolParam(q, key) : undefined;
}

const INT64 = /^[+-]?\d+$/;
const MAX_INT64 = 2n ** 63n - 1n;

/** Convert_Slice_string_To_int64 / _Pointer_int64: strconv.ParseInt(v, 10, 64), undefined when absent. */
export function int64Param(q: URLSearchParams, key: string): number | undefined {
  const v = q.get(key);
  if (v === null) return undefined;
  if (!INT64.test(v)) throw new ApiError(400, 'BadRequest', `strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  const n = BigInt(v);
  if (n > MAX_INT64 || n < -MAX_INT64 - 1n) throw new ApiError(400, 'BadRequest', `strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range`);
  return Number(n);
}
