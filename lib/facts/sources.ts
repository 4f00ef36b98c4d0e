// Where an expectation's promise comes from, as a user can look it up: an upstream document
// with its URL and the docs version it speaks for. The catalog writes short citation keys in
// Expectation.source ("the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/) (session affinity table); the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/)"); every report and
// `wincheck list` shows them through citationsOf(), never the keys themselves.
//
// The keys name the project's working notes: "the v1.9 Windows guide (https://github.com/kubernetes/website/blob/release-1.9/docs/getting-started-guides/windows/index.md)" is the translated v1.9 page "Using
// Windows Server Containers in Kubernetes", "the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/)" the translated v1.22 page "Intro to
// Windows support in Kubernetes", the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) the current "Windows containers in Kubernetes"
// page, docs/windows-commands.md the upstream Windows e2e tests it cites.

import { WINCHECK_VERSION } from './wincheck.ts';

export interface UpstreamDoc {
  title: string;
  url: string;
  /** The Kubernetes docs (or code) version the page speaks for, e.g. "v1.33"; "wincheck 0.1.0" for our own docs. */
  version: string;
}

export interface Citation extends UpstreamDoc {
  /** The part of the page, or what it says, when the catalog names it ("session affinity table"). */
  detail?: string;
}

/** The docs version the current pages are cited at (the newest one the catalog was checked against). */
export const CURRENT_DOCS = 'v1.33';
const E2E_BRANCH = 'release-1.33';

export const UPSTREAM_DOCS = {
  v19Guide: {
    title: 'Using Windows Server Containers in Kubernetes',
    version: 'v1.9',
    url: 'https://github.com/kubernetes/website/blob/release-1.9/docs/getting-started-guides/windows/index.md',
  },
  v122Intro: {
    title: 'Intro to Windows support in Kubernetes',
    version: 'v1.22',
    url: 'https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/',
  },
  intro: { title: 'Windows containers in Kubernetes', version: CURRENT_DOCS, url: 'https://kubernetes.io/docs/concepts/windows/intro/' },
  userGuide: {
    title: 'Guide for Running Windows Containers in Kubernetes',
    version: CURRENT_DOCS,
    url: 'https://kubernetes.io/docs/concepts/windows/user-guide/',
  },
  networking: { title: 'Networking on Windows', version: CURRENT_DOCS, url: 'https://kubernetes.io/docs/concepts/services-networking/windows-networking/' },
  dns: { title: 'DNS for Services and Pods', version: CURRENT_DOCS, url: 'https://kubernetes.io/docs/concepts/services-networking/dns-pod-service/' },
  versionSkew: { title: 'Version Skew Policy', version: CURRENT_DOCS, url: 'https://kubernetes.io/releases/version-skew-policy/' },
  e2e: {
    title: 'Kubernetes Windows end-to-end tests (test/e2e/windows)',
    version: CURRENT_DOCS,
    url: `https://github.com/kubernetes/kubernetes/tree/${E2E_BRANCH}/test/e2e/windows`,
  },
} satisfies Record<string, UpstreamDoc>;

/** "upstream doc <name>" keys. */
const NAMED_DOCS: Record<string, UpstreamDoc> = {
  'windows/intro': UPSTREAM_DOCS.intro,
  'windows/user-guide': UPSTREAM_DOCS.userGuide,
  'windows-networking': UPSTREAM_DOCS.networking,
  'dns-pod-service': UPSTREAM_DOCS.dns,
  'version-skew-policy': UPSTREAM_DOCS.versionSkew,
  'dockershim-removal': {
    title: 'Migrating from dockershim',
    version: CURRENT_DOCS,
    url: 'https://kubernetes.io/docs/tasks/administer-cluster/migrating-from-dockershim/',
  },
  'concepts/workloads/pods': { title: 'Pods', version: CURRENT_DOCS, url: 'https://kubernetes.io/docs/concepts/workloads/pods/' },
  'tasks/configure-pod-container/create-hostprocess-pod': {
    title: 'Create a Windows HostProcess Pod',
    version: CURRENT_DOCS,
    url: 'https://kubernetes.io/docs/tasks/configure-pod-container/create-hostprocess-pod/',
  },
};

/** "upstream doc concepts/x/y": any page of kubernetes.io/docs by its path, titled by the path when not listed above. */
function namedDoc(name: string): UpstreamDoc | undefined {
  const n = name.trim();
  if (NAMED_DOCS[n]) return NAMED_DOCS[n];
  if (/^(concepts|tasks|reference|setup|tutorials)\/[\w/-]+$/.test(n))
    return { title: `Kubernetes docs ${n}`, version: CURRENT_DOCS, url: `https://kubernetes.io/docs/${n}/` };
  return undefined;
}

/** One key ("the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/) (table)") → its citations; undefined when the key is not known. */
function resolveKey(key: string): Citation[] | undefined {
  const m = /^(.*?)\s*(?:\((.*)\))?$/.exec(key.trim())!;
  const [head, paren] = [m[1].trim(), m[2]?.trim()];
  const cite = (doc: UpstreamDoc, detail?: string): Citation => ({ ...doc, ...(detail ? { detail } : {}) });
  if (head === 'seed 000') return [cite(UPSTREAM_DOCS.v19Guide, paren)];
  if (head === 'seed 003') return [cite(UPSTREAM_DOCS.v122Intro, paren)];
  // "the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) net.dual-stack": the catalog row is ours; the page it rests on is the intro.
  if (/^FEATURES\.md\b/.test(head)) return [cite(UPSTREAM_DOCS.intro, paren)];
  if (/^WINDOWS-COMMANDS\.md\b/.test(head)) return [cite(UPSTREAM_DOCS.e2e, paren)];
  // "k8s build/pause/Makefile": a file in kubernetes/kubernetes, as docs/windows-commands.md cites them.
  const k8s = /^k8s ([\w./-]+)$/.exec(head);
  if (k8s)
    return [
      cite(
        { title: `Kubernetes source ${k8s[1]}`, version: CURRENT_DOCS, url: `https://github.com/kubernetes/kubernetes/blob/${E2E_BRANCH}/${k8s[1]}` },
        paren,
      ),
    ];
  if (head === 'containerd/platforms')
    return [cite({ title: 'containerd/platforms (OS version matching)', version: 'v1.0', url: 'https://github.com/containerd/platforms' }, paren)];
  // wincheck's own checked-in docs (docs/images.md): in the user's checkout, cited by path.
  const ours = /^(docs\/[\w.-]+\.md)$/.exec(head);
  if (ours) return [cite({ title: `wincheck ${ours[1]}`, version: `wincheck ${WINCHECK_VERSION}`, url: ours[1] }, paren)];
  const kep = /^KEP-(\d+)$/.exec(head);
  if (kep)
    return [
      {
        title: `KEP-${kep[1]}`,
        version: CURRENT_DOCS,
        url: `https://github.com/kubernetes/enhancements/issues/${kep[1]}`,
        ...(paren ? { detail: paren } : {}),
      },
    ];
  const test = /^upstream (?:test )?(test\/e2e\/windows(?:\/[\w.-]+)?)$/.exec(head);
  if (test)
    return [
      cite(
        {
          ...UPSTREAM_DOCS.e2e,
          title: `Kubernetes e2e test ${test[1]}`,
          url: `https://github.com/kubernetes/kubernetes/${test[1].endsWith('.go') ? 'blob' : 'tree'}/${E2E_BRANCH}/${test[1]}`,
        },
        paren,
      ),
    ];
  const doc = /^upstream doc (.+)$/.exec(head);
  if (doc) {
    const docs = doc[1].split(/\s+and\s+/).map(namedDoc);
    if (docs.every(d => d !== undefined)) return docs.map(d => cite(d, paren));
  }
  return undefined;
}

/** The citation keys of an Expectation.source that citationsOf() cannot resolve (the catalog test lists them). */
export function unresolvedKeys(source: string): string[] {
  return splitKeys(source).filter(k => !resolveKey(k));
}

/** Every document behind a source, in order, without repeats (same page and detail). */
export function citationsOf(source: string): Citation[] {
  const seen = new Set<string>();
  const out: Citation[] = [];
  for (const key of splitKeys(source)) {
    for (const c of resolveKey(key) ?? []) {
      const id = `${c.url}#${c.detail ?? ''}`;
      if (!seen.has(id)) {
        seen.add(id);
        out.push(c);
      }
    }
  }
  return out;
}

/** One line of plain text: "Networking on Windows (Kubernetes docs v1.33, <url>)". */
export function formatSources(source: string): string {
  const cites = citationsOf(source);
  if (!cites.length) return source;
  return cites.map(c => `${c.title}${c.detail ? `, ${c.detail}` : ''} (${c.version}, ${c.url})`).join('; ');
}

/** The same as markdown links: "[Networking on Windows](url) (v1.33)". */
export function formatSourcesMarkdown(source: string): string {
  const cites = citationsOf(source);
  if (!cites.length) return source;
  return cites.map(c => `[${c.title}](${c.url}) (${c.version}${c.detail ? `: ${c.detail}` : ''})`).join('; ');
}

function splitKeys(source: string): string[] {
  // Split on ";" outside parentheses: "the v1.9 Windows guide (https://github.com/kubernetes/website/blob/release-1.9/docs/getting-started-guides/windows/index.md) (a; b); the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/)" is two keys.
  const keys: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of source) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ';' && depth === 0) {
      keys.push(cur);
      cur = '';
    } else cur += ch;
  }
  keys.push(cur);
  return keys.map(k => k.trim()).filter(Boolean);
}
