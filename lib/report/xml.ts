// A tiny XML tree and serializer (as Playwright's JUnit reporter does): junit-report-builder
// cannot put a message on <skipped>, and n/a must say why.

export interface XMLEntry {
  name: string;
  attributes?: Record<string, string | number>;
  children?: XMLEntry[];
  text?: string;
}

export function serializeXML(entry: XMLEntry, indent = ''): string {
  const attrs = Object.entries(entry.attributes ?? {})
    .map(([k, v]) => ` ${k}="${escapeAttr(String(v))}"`)
    .join('');
  const children = entry.children ?? [];
  if (!children.length && entry.text === undefined) return `${indent}<${entry.name}${attrs}/>`;
  if (!children.length) return `${indent}<${entry.name}${attrs}>${cdata(entry.text ?? '')}</${entry.name}>`;
  const inner = children.map(c => serializeXML(c, indent + '  ')).join('\n');
  return `${indent}<${entry.name}${attrs}>\n${inner}\n${indent}</${entry.name}>`;
}

// eslint-disable-next-line no-control-regex
const INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

export function stripInvalidXML(s: string): string {
  return s.replace(INVALID, '');
}

function escapeAttr(s: string): string {
  return stripInvalidXML(s).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '&#10;');
}

function cdata(s: string): string {
  return `<![CDATA[${stripInvalidXML(s).replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}

/** An XML comment line; "--" is not allowed inside comments. */
export function xmlComment(s: string): string {
  return `<!-- ${stripInvalidXML(s).replace(/--/g, '- -')} -->`;
}
