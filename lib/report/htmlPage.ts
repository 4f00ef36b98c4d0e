// The pieces every wincheck HTML page shares (report.html of a run, merged matrices): one
// self-contained document, inline CSS, no script, no network; outcomes coloured the same way
// everywhere, with the word always written out (colour is never the only signal).

import type { Outcome } from '../catalog/types.ts';
import type { Source } from '../facts/sources.ts';

export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** An outcome as a coloured word; `title` (hover) says why. */
export function outcomeBadge(outcome: Outcome | string, title?: string): string {
  return `<span class="o o-${cssName(outcome)}"${title ? ` title="${esc(title)}"` : ''}>${esc(outcome)}</span>`;
}

export function cssName(outcome: string): string {
  return outcome === 'n/a' ? 'na' : outcome.replace(/[^a-z]/g, '');
}

/** An expectation's source as links to the upstream pages. */
export function sourcesHtml(source: Source): string {
  return source.map(c => `<a href="${esc(c.url)}">${esc(c.title)}</a> (${esc(c.version)}${c.detail ? `: ${esc(c.detail)}` : ''})`).join('; ');
}

export function htmlPage(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

const CSS = `
:root { --supported:#1a7f37; --limited:#5a6b7b; --lifted:#8250df; --regressed:#cf222e; --error:#bc4c00; --na:#8c959f; --line:#d0d7de; }
body { font: 14px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 0 auto; padding: 16px 24px 48px; max-width: 1400px; color: #1f2328; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.meta { color: #59636e; margin: 0 0 12px; }
.sim { background: #fff8c5; border: 1px solid #d4a72c; padding: 6px 10px; border-radius: 6px; font-weight: 600; margin: 8px 0; }
.status { display: inline-block; font-weight: 700; padding: 2px 10px; border-radius: 12px; color: #fff; }
.status-passed { background: var(--supported); } .status-failed, .status-timedout { background: var(--regressed); } .status-interrupted { background: var(--error); }
.counts { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; padding: 0; list-style: none; }
.counts li { border: 1px solid var(--line); border-radius: 6px; padding: 6px 12px; min-width: 84px; }
.counts b { display: block; font-size: 22px; }
.o { display: inline-block; padding: 0 6px; border-radius: 4px; color: #fff; font-size: 12px; font-weight: 600; white-space: nowrap; }
.o-supported { background: var(--supported); } .o-limited { background: var(--limited); } .o-lifted { background: var(--lifted); }
.o-regressed { background: var(--regressed); } .o-error { background: var(--error); } .o-na { background: var(--na); }
.o-changed { background: #0969da; } .o-missing { background: #fff; color: #59636e; border: 1px dashed var(--na); }
table { border-collapse: collapse; margin: 4px 0 12px; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
td.c { text-align: center; }
tr.suite th { background: #eaeef2; text-transform: capitalize; }
tr.bad > td:first-child { box-shadow: inset 4px 0 0 var(--regressed); }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.fid { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: nowrap; }
.sub { color: #59636e; font-size: 12px; }
details { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; padding: 4px 10px; }
details[open] { background: #fbfcfd; }
summary { cursor: pointer; }
pre { white-space: pre-wrap; word-break: break-word; background: #f6f8fa; padding: 8px; border-radius: 6px; font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; margin: 6px 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 6px 0; }
dt { color: #59636e; } dd { margin: 0; }
.legend { color: #59636e; font-size: 12px; }
footer { margin-top: 32px; color: #59636e; font-size: 12px; }
`;
