// Where an expectation's promise comes from, as a user can look it up: an upstream document
// with its URL and the docs version it speaks for. The catalog cites documents through `cite`
// (typed: a document by name, with the part of it the promise rests on), never by free text, so
// every citation a report shows has a title, a version and a URL.

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

/** An expectation's sources: the documents it rests on, in order. */
export type Source = readonly Citation[];

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
  dockershimRemoval: {
    title: 'Migrating from dockershim',
    version: CURRENT_DOCS,
    url: 'https://kubernetes.io/docs/tasks/administer-cluster/migrating-from-dockershim/',
  },
  pods: { title: 'Pods', version: CURRENT_DOCS, url: 'https://kubernetes.io/docs/concepts/workloads/pods/' },
  hostProcessPod: {
    title: 'Create a Windows HostProcess Pod',
    version: CURRENT_DOCS,
    url: 'https://kubernetes.io/docs/tasks/configure-pod-container/create-hostprocess-pod/',
  },
  e2e: {
    title: 'Kubernetes Windows end-to-end tests (test/e2e/windows)',
    version: CURRENT_DOCS,
    url: `https://github.com/kubernetes/kubernetes/tree/${E2E_BRANCH}/test/e2e/windows`,
  },
  containerdPlatforms: { title: 'containerd/platforms (OS version matching)', version: 'v1.0', url: 'https://github.com/containerd/platforms' },
} satisfies Record<string, UpstreamDoc>;

const at = (doc: UpstreamDoc, detail?: string): Citation => ({ ...doc, ...(detail ? { detail } : {}) });
type DocName = keyof typeof UPSTREAM_DOCS;

/**
 * Typed citations: `cite.networking('load balancing')`, `cite.e2e('host_process.go')`,
 * `cite.doc('concepts/storage/volumes')`, `cite.kep(1981)`. Every named document of
 * UPSTREAM_DOCS is a function of the detail it is cited for.
 */
export const cite = {
  ...(Object.fromEntries(Object.entries(UPSTREAM_DOCS).map(([name, doc]) => [name, (detail?: string) => at(doc, detail)])) as Record<
    DocName,
    (detail?: string) => Citation
  >),
  /** Any page of kubernetes.io/docs by its path ("concepts/storage/volumes"). */
  doc: (path: string, detail?: string): Citation =>
    at({ title: `Kubernetes docs ${path}`, version: CURRENT_DOCS, url: `https://kubernetes.io/docs/${path}/` }, detail),
  /** A file of kubernetes/kubernetes ("build/pause/Makefile"). */
  k8s: (file: string, detail?: string): Citation =>
    at({ title: `Kubernetes source ${file}`, version: CURRENT_DOCS, url: `https://github.com/kubernetes/kubernetes/blob/${E2E_BRANCH}/${file}` }, detail),
  /** An upstream Windows e2e test file ("host_process.go"); the whole folder without one. */
  e2eTest: (file: string, detail?: string): Citation =>
    at(
      {
        ...UPSTREAM_DOCS.e2e,
        title: `Kubernetes e2e test test/e2e/windows/${file}`,
        url: `https://github.com/kubernetes/kubernetes/blob/${E2E_BRANCH}/test/e2e/windows/${file}`,
      },
      detail,
    ),
  /**
   * An upstream Windows e2e test file added after the release the other citations speak for
   * (`since` "1.37"): cited at that release's branch, where it first is.
   */
  e2eTestSince: (file: string, since: `${number}.${number}`, detail?: string): Citation =>
    at(
      {
        title: `Kubernetes e2e test test/e2e/windows/${file}`,
        version: `v${since}`,
        url: `https://github.com/kubernetes/kubernetes/blob/release-${since}/test/e2e/windows/${file}`,
      },
      detail,
    ),
  /** An upstream Windows e2e test file as it is on master, where the release it first shipped in is not known. */
  e2eTestMaster: (file: string, detail?: string): Citation =>
    at(
      {
        title: `Kubernetes e2e test test/e2e/windows/${file}`,
        version: 'master',
        url: `https://github.com/kubernetes/kubernetes/blob/master/test/e2e/windows/${file}`,
      },
      detail,
    ),
  /** A kubernetes/kubernetes release's CHANGELOG ("1.37"), with the entry the promise rests on. */
  changelog: (minor: `${number}.${number}`, detail?: string): Citation =>
    at(
      {
        title: `Kubernetes CHANGELOG-${minor}.md`,
        version: `v${minor}`,
        url: `https://github.com/kubernetes/kubernetes/blob/master/CHANGELOG/CHANGELOG-${minor}.md`,
      },
      detail,
    ),
  /** A windows-operational-readiness specification ("ext-network-policies/spec.yaml"). */
  readiness: (file: string, detail?: string): Citation =>
    at(
      {
        title: `windows-operational-readiness specifications/${file}`,
        version: 'main',
        url: `https://github.com/kubernetes-sigs/windows-operational-readiness/blob/main/specifications/${file}`,
      },
      detail,
    ),
  /** A kubernetes/kubernetes issue, by number and title, with the release it speaks for ("v1.30"). */
  k8sIssue: (n: number, title: string, version: string, detail?: string): Citation =>
    at({ title: `kubernetes/kubernetes#${n}: ${title}`, version, url: `https://github.com/kubernetes/kubernetes/issues/${n}` }, detail),
  /** A kubernetes/kubernetes pull request, by number and title, with the release it lands in. */
  k8sPull: (n: number, title: string, version: string, detail?: string): Citation =>
    at({ title: `kubernetes/kubernetes#${n}: ${title}`, version, url: `https://github.com/kubernetes/kubernetes/pull/${n}` }, detail),
  /** A Kubernetes Enhancement Proposal by number. */
  kep: (n: number, detail?: string): Citation =>
    at({ title: `KEP-${n}`, version: CURRENT_DOCS, url: `https://github.com/kubernetes/enhancements/issues/${n}` }, detail),
  /** wincheck's own checked-in docs, in the user's checkout ("docs/images.md"). */
  ours: (path: `docs/${string}.md`, detail?: string): Citation => at({ title: `wincheck ${path}`, version: `wincheck ${WINCHECK_VERSION}`, url: path }, detail),
};

/** Sources joined in order, each document (page and detail) once. */
export function sources(...parts: (Citation | Source)[]): Source {
  const seen = new Set<string>();
  const out: Citation[] = [];
  for (const c of parts.flat()) {
    const id = `${c.url}#${c.detail ?? ''}`;
    if (!seen.has(id)) {
      seen.add(id);
      out.push(c);
    }
  }
  return out;
}

/** One line of plain text: "Networking on Windows (Kubernetes docs v1.33, <url>)". */
export function formatSources(source: Source): string {
  return source.map(c => `${c.title}${c.detail ? `, ${c.detail}` : ''} (${c.version}, ${c.url})`).join('; ');
}

/** The same as markdown links: "[Networking on Windows](url) (v1.33)". */
export function formatSourcesMarkdown(source: Source): string {
  return source.map(c => `[${c.title}](${c.url}) (${c.version}${c.detail ? `: ${c.detail}` : ''})`).join('; ');
}
