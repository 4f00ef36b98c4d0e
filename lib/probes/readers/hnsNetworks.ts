// The node's HNS networks as the tools list them, in every layout seen:
// - `Get-HnsNetwork | Format-List` (and its default list): blocks of "Key : value" lines, blank-line
//   separated, long values wrapped onto indented continuation lines;
// - hnsdiag's block layout ("Network : {GUID}" then indented "Name : …", "Type : …", as its
//   "list adapters" prints: https://github.com/microsoft/SDN/pull/456);
// - a table with a header row naming its columns (older hnsdiag: Name and ID, no type), columns
//   split by "|" or by runs of spaces.
// A network whose type the output does not give has type ''.

export interface HnsNetwork {
  name: string;
  type: string;
}

/**
 * `Get-HnsNetwork` list output → networks (blocks split by blank lines, keys in any order; a block
 * cut before its Type line, as excerpts are, has type '').
 */
export function parseHnsNetworks(stdout: string): HnsNetwork[] {
  const out: HnsNetwork[] = [];
  for (const block of stdout.split(/\r?\n\s*\r?\n/)) {
    const name = /^Name\s*:[ \t]*(.*?)\s*$/m.exec(block)?.[1];
    const type = /^Type\s*:[ \t]*(.*?)\s*$/m.exec(block)?.[1];
    if (name !== undefined && (type !== undefined || /^ID\s*:/im.test(block))) out.push({ name, type: type ?? '' });
  }
  return out;
}

/** hnsdiag's block layout: "<Kind> : {id}" headers (Network, Adapter...), each followed by indented Name/Type lines. */
export function parseHnsdiagBlocks(stdout: string, kind = 'Network'): HnsNetwork[] {
  const out: HnsNetwork[] = [];
  let cur: HnsNetwork | undefined;
  const header = new RegExp(`^${kind}\\s*:\\s*\\{?[0-9A-Fa-f-]{36}\\}?\\s*$`, 'i');
  for (const line of stdout.split(/\r?\n/)) {
    const head = header.exec(line);
    if (head) {
      cur = { name: '', type: '' };
      out.push(cur);
      continue;
    }
    const kv = /^\s+(Name|Type)\s*:[ \t]*(.*?)\s*$/i.exec(line);
    if (cur && kv) cur[kv[1].toLowerCase() as 'name' | 'type'] = kv[2];
  }
  return out.filter(n => n.name);
}

/** A header row naming the columns, then rows (separators of dashes skipped). */
function hnsdiagTable(stdout: string): HnsNetwork[] | undefined {
  const lines = stdout.split(/\r?\n/).filter(l => l.trim());
  const split = (l: string) => (l.includes('|') ? l.split('|') : l.trim().split(/\s{2,}/)).map(c => c.trim());
  const h = lines.findIndex(l => !/\s:\s/.test(l) && split(l).some(c => /^name$/i.test(c)));
  if (h < 0) return undefined;
  const cols = split(lines[h]).map(c => c.toLowerCase());
  const at = (re: RegExp) => cols.findIndex(c => re.test(c));
  const [iName, iType] = [at(/^name$/), at(/^type$/)];
  const out: HnsNetwork[] = [];
  for (const l of lines.slice(h + 1)) {
    if (/^[\s|+-]+$/.test(l)) continue;
    const c = split(l);
    if (!c[iName]) continue;
    out.push({ name: c[iName], type: iType >= 0 ? (c[iType] ?? '') : '' });
  }
  return out;
}

/** `hnsdiag list networks` in any of its layouts (or Format-List blocks) → networks. */
export function parseHnsdiagNetworks(stdout: string): HnsNetwork[] {
  const blocks = parseHnsdiagBlocks(stdout);
  if (blocks.length) return blocks;
  const list = parseHnsNetworks(stdout);
  return list.length ? list : (hnsdiagTable(stdout) ?? []);
}

/** Whether the output is a listing (possibly of no network) rather than something else (usage text, an error). */
export function isHnsdiagListing(stdout: string): boolean {
  return parseHnsdiagNetworks(stdout).length > 0 || /^\s*(?:Network Id|Name)\b.*$/im.test(stdout) || /\/+NETWORKS\/+/i.test(stdout);
}
