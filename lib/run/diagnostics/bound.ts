// The size bound of a feature's diagnostics: each file keeps its last FILE_LIMIT bytes (the end of
// a log is what led to the failure), a folder takes at most FOLDER_LIMIT; what is cut is marked.

/** Bytes kept of one file (its end). */
export const FILE_LIMIT = 256 * 1024;
/** Bytes of one feature's folder, all files together. */
export const FOLDER_LIMIT = 2 * 1024 * 1024;

/** The text's last `limit` bytes, opening with a marker saying how much was cut. */
export function keepTail(text: string, limit = FILE_LIMIT): string {
  const buf = Buffer.from(text);
  if (buf.length <= limit) return text;
  // Cut at a line start so the first kept line is whole (and no UTF-8 sequence is split).
  let start = buf.length - limit;
  const nl = buf.indexOf(0x0a, start);
  if (nl !== -1 && nl < buf.length - 1) start = nl + 1;
  return `[wincheck: ${start} bytes cut here; each diagnostics file keeps its last ${limit} bytes]\n${buf.subarray(start).toString()}`;
}

/** What a folder may still take: files past the budget are written as a marker only. */
export class FolderBudget {
  private _left: number;
  constructor(private readonly _limit = FOLDER_LIMIT) {
    this._left = _limit;
  }
  take(text: string): string {
    const kept = keepTail(text);
    const size = Buffer.byteLength(kept);
    if (size > this._left) return `[wincheck: not kept: this folder reached its bound of ${this._limit} bytes]\n`;
    this._left -= size;
    return kept;
  }
}
