// Windows builds: every fact the harness knows about a build, in one table (its release name, the
// LTSC image tag, the short label testcases carry, the Kubernetes versions that support it), and
// the build thresholds of networking features. Pure; tested without a cluster.

import type { MinorVersion } from './kubernetes.ts';

export interface WindowsBuild {
  /** The third part of 10.0.x: 20348. */
  build: number;
  /** "Windows Server 2022", "Windows Server version 2004". */
  release: string;
  /** The Server LTSC year, as osImage names it ("Windows Server 2022 Datacenter"). */
  serverYear?: number;
  /** The LTSC tag of servercore and IIS images: "ltsc2022". */
  ltscTag?: string;
  /** The short name testcases and image lists carry: the LTSC tag, or "23H2". */
  label?: string;
  /** The version name its images are also published under ("1809" for 2019). */
  versionName?: string;
  /** An LTSC of the stable ABI: from 2022 on a host also runs the previous LTSC's images (containerd/platforms compatLTSCReleases). */
  stableAbi?: boolean;
  /**
   * The Kubernetes versions that support the build on nodes: the v1.22 intro's table for
   * v1.20-v1.22 (2019 and the SAC releases), the current windows/intro compatibility table after
   * it (2022 from v1.23; 2025 from v1.32, as we read that table). Absent: never supported.
   */
  kubernetes?: { from: MinorVersion; until?: MinorVersion };
}

/** Ascending by build. */
export const WINDOWS_BUILDS: readonly WindowsBuild[] = [
  { build: 14393, release: 'Windows Server 2016', serverYear: 2016 },
  {
    build: 17763,
    release: 'Windows Server 2019',
    serverYear: 2019,
    ltscTag: 'ltsc2019',
    label: 'ltsc2019',
    versionName: '1809',
    kubernetes: { from: [1, 14] },
  },
  { build: 18363, release: 'Windows Server version 1909', kubernetes: { from: [1, 17], until: [1, 20] } },
  { build: 19041, release: 'Windows Server version 2004', kubernetes: { from: [1, 19], until: [1, 22] } },
  { build: 19042, release: 'Windows Server version 20H2', kubernetes: { from: [1, 20], until: [1, 22] } },
  { build: 20348, release: 'Windows Server 2022', serverYear: 2022, ltscTag: 'ltsc2022', label: 'ltsc2022', stableAbi: true, kubernetes: { from: [1, 23] } },
  { build: 25398, release: 'Windows Server version 23H2', label: '23H2' },
  { build: 26100, release: 'Windows Server 2025', serverYear: 2025, ltscTag: 'ltsc2025', label: 'ltsc2025', stableAbi: true, kubernetes: { from: [1, 32] } },
];

export function windowsBuildRow(build: number | undefined): WindowsBuild | undefined {
  return build === undefined ? undefined : WINDOWS_BUILDS.find(r => r.build === build);
}

/** 20348 from "10.0.20348" or "10.0.20348.2582"; undefined otherwise. */
export function buildNumberOf(windowsBuild: string): number | undefined {
  const m = /^10\.0\.(\d+)/.exec(windowsBuild.trim());
  return m ? Number(m[1]) : undefined;
}

/** Windows build → LTSC image tag of servercore and IIS ({17763: 'ltsc2019', ...}). */
export const LTSC_TAGS: Readonly<Record<number, string>> = Object.fromEntries(WINDOWS_BUILDS.filter(r => r.ltscTag).map(r => [r.build, r.ltscTag!]));

/** LTSC releases of the stable ABI, ascending. */
export const STABLE_ABI_LTSC: readonly number[] = WINDOWS_BUILDS.filter(r => r.stableAbi).map(r => r.build);

/** The builds `wincheck images` lists when none is named: the LTSC releases and 23H2. */
export const DEFAULT_LIST_BUILDS: string[] = WINDOWS_BUILDS.filter(r => r.label).map(r => `10.0.${r.build}`);

/** The testcase label of a build: its LTSC name, 23H2, else the build itself. */
export function buildLabel(build: string): string {
  return windowsBuildRow(buildNumberOf(build))?.label ?? build;
}

/** A build as image lists name it: "1809/ltsc2019", "ltsc2022", "23H2", else "10.0.N". */
export function buildName(n: number): string {
  const row = windowsBuildRow(n);
  if (!row?.label) return `10.0.${n}`;
  return row.versionName ? `${row.versionName}/${row.label}` : row.label;
}

/** "Windows Server 2022" for "10.0.20348"; undefined for a build without a Server LTSC name. */
export function releaseOfBuild(build: string): string | undefined {
  const row = windowsBuildRow(buildNumberOf(build));
  return row?.serverYear ? row.release : undefined;
}

/** The build of a Server LTSC release that osImage names ("Windows Server 2022 Datacenter" → "10.0.20348"). */
export function buildOfRelease(osImage: string): string | undefined {
  const row = [...WINDOWS_BUILDS].reverse().find(r => r.serverYear && new RegExp(`\\b${r.serverYear}\\b`).test(osImage));
  return row ? `10.0.${row.build}` : undefined;
}

/**
 * The Windows builds networking features need (the v1.22 intro's session affinity and load
 * balancing tables; the current Networking on Windows page for dual-stack).
 */
export const NETWORK_MIN_BUILD = {
  /** ClientIP session affinity: 2022 and 2025, not 2019. */
  sessionAffinity: 19551,
  /** IPv6 dual-stack. */
  dualStack: 19041,
  /** preserve-destination: Windows Server 1903 or later, with DSR. */
  preserveDestination: 18362,
  /** DSR, and with it preserve-client-ip: Windows Server 2019 or later. */
  dsr: 17763,
} as const;
