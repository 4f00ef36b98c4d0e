// The sim's image registry: which images exist, for which OS and Windows build
// (multi-arch manifest lists), and what is inside them (entrypoint, user, binaries,
// default env). Facts come from the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) and docs/windows-commands.md §0, §1, §7, §8.

import { createHash } from 'node:crypto';
import { WINCHECK_ENTRYPOINT } from './hostProcess.ts';

/** The e2e NFS server's exported index.html (test/images/volume/nfs). */
export const NFS_INDEX_HTML = 'Hello from NFS!\n';

export type ImageOS = 'linux' | 'windows';

/** One platform entry of a manifest list. */
export interface ImageManifest {
  os: ImageOS;
  /** Windows only: "10.0.17763" style (build without the revision). */
  build?: string;
  entrypoint?: string[];
  cmd?: string[];
  /** Default user ("ContainerAdministrator", "ContainerUser", "root", "65532"). */
  user: string;
  workingDir?: string;
  /** Image env (Path etc.), before the runtime's own defaults. */
  env: Record<string, string>;
  /** Lower-case executable basenames on the image's PATH. */
  binaries: string[];
  /** Files baked into the image, by absolute path. */
  files?: Record<string, string>;
  /** Compressed size reported in the Pulled event. */
  size: number;
  /**
   * The default process keeps running with no stdin. Windows base images default to
   * cmd.exe, which really exits at once without a console; the seeds' pods
   * (secret-pod, emptydir, hostpath, DaemonSet) use servercore with no command and
   * are expected to run, so the sim keeps that default shell waiting (a documented choice).
   */
  defaultRunsForever?: boolean;
  /**
   * The image's own long-running components (kube-proxy, flanneld, coredns...): started
   * by argv[0] basename, they serve until stopped. The sim plays them as idle processes.
   */
  daemons?: string[];
}

export interface ImageEntry {
  /** Canonical repository, e.g. "mcr.microsoft.com/windows/servercore". */
  repo: string;
  tags: string[];
  /** Versioned component images (kube-proxy, CNI): any tag of this shape exists. */
  tagPattern?: RegExp;
  manifests: ImageManifest[];
}

export const BUILD_2019 = '10.0.17763';
export const BUILD_2022 = '10.0.20348';
export const BUILD_2025 = '10.0.26100';
/** Windows Server 1709 (the the v1.9 Windows guide (https://github.com/kubernetes/website/blob/release-1.9/docs/getting-started-guides/windows/index.md) images). */
export const BUILD_1709 = '10.0.16299';
/** Windows Server 2016 (what `microsoft/iis:latest` and `*-nanoserver` tags of 2017 were). */
export const BUILD_2016 = '10.0.14393';

const WIN_TAG: Record<string, string> = { [BUILD_2019]: 'ltsc2019', [BUILD_2022]: 'ltsc2022', [BUILD_2025]: 'ltsc2025' };
const MODERN = [BUILD_2019, BUILD_2022, BUILD_2025];
/**
 * The Windows builds the Kubernetes test images and pause publish: 1809 and ltsc2022 only
 * (k8s build/pause/Makefile ALL_OSVERSIONS.windows, test/images/agnhost/BASEIMAGE; docs/images.md).
 */
const K8S_IMAGE_BUILDS = [BUILD_2019, BUILD_2022];

// Windows System32 tools of Server Core (docs/windows-commands.md §0, §2, §4, §5).
const SERVERCORE_BINS = [
  'cmd.exe',
  'powershell.exe',
  'curl.exe',
  'nslookup.exe',
  'ping.exe',
  'ipconfig.exe',
  'whoami.exe',
  'hostname.exe',
  'tasklist.exe',
  'netsh.exe',
  'sc.exe',
  'findstr.exe',
  'reg.exe',
  'net.exe',
  'nltest.exe',
  'timeout.exe',
  'where.exe',
  'tar.exe',
  'route.exe',
  'netstat.exe',
  'certutil.exe',
  'icacls.exe',
  'more.com',
  'sort.exe',
];
// Nano Server has no PowerShell (microsoft/Windows-Containers#252, §0); curl.exe UNCONFIRMED (§2), kept.
// netstat.exe: UNCONFIRMED for Nano Server (no source in docs/windows-commands.md); kept with the other inbox
// TCP/IP tools (ipconfig, ping, nslookup, netsh) it ships beside in System32.
const NANOSERVER_BINS = [
  'cmd.exe',
  'curl.exe',
  'tar.exe',
  'hostname.exe',
  'ipconfig.exe',
  'nslookup.exe',
  'ping.exe',
  'whoami.exe',
  'findstr.exe',
  'reg.exe',
  'netsh.exe',
  'netstat.exe',
  'where.exe',
  'more.com',
  'sort.exe',
];
// The e2e images put busybox applets in C:\bin, curl 7.57 in C:\curl, BIND nslookup/dig in C:\dig (§0).
const BUSYBOX_APPLETS = [
  'sh',
  'ls',
  'cat',
  'echo',
  'sleep',
  'wget',
  'whoami',
  'nc',
  'grep',
  'env',
  'mkdir',
  'rm',
  'touch',
  'test',
  'printf',
  'true',
  'false',
  'id',
  'ps',
  'head',
  'tail',
  'wc',
  'sed',
  'awk',
];
const LINUX_BUSYBOX_BINS = [
  ...BUSYBOX_APPLETS,
  'hostname',
  'nslookup',
  'ping',
  'ip',
  'ifconfig',
  'netstat',
  'dd',
  'du',
  'df',
  'mount',
  'date',
  'kill',
  'uname',
];

/** Windows default environment (§8); COMPUTERNAME and USERNAME are set per container by the runtime. */
function windowsEnv(path: string): Record<string, string> {
  return {
    ALLUSERSPROFILE: 'C:\\ProgramData',
    APPDATA: 'C:\\Users\\{user}\\AppData\\Roaming',
    CommonProgramFiles: 'C:\\Program Files\\Common Files',
    ComSpec: 'C:\\Windows\\system32\\cmd.exe',
    LOCALAPPDATA: 'C:\\Users\\{user}\\AppData\\Local',
    NUMBER_OF_PROCESSORS: '{cpus}',
    OS: 'Windows_NT',
    Path: path,
    PATHEXT: '.COM;.EXE;.BAT;.CMD',
    PROCESSOR_ARCHITECTURE: 'AMD64',
    ProgramData: 'C:\\ProgramData',
    ProgramFiles: 'C:\\Program Files',
    'ProgramFiles(x86)': 'C:\\Program Files (x86)',
    PUBLIC: 'C:\\Users\\Public',
    SystemDrive: 'C:',
    SystemRoot: 'C:\\Windows',
    TEMP: 'C:\\Users\\{user}\\AppData\\Local\\Temp',
    TMP: 'C:\\Users\\{user}\\AppData\\Local\\Temp',
    USERDOMAIN: 'User Manager',
    USERPROFILE: 'C:\\Users\\{user}',
    windir: 'C:\\Windows',
  };
}

const SYS_PATH = 'C:\\Windows\\system32;C:\\Windows;C:\\Windows\\System32\\Wbem;C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\';
const NANO_PATH = 'C:\\Windows\\system32;C:\\Windows';
const E2E_PATH = `C:\\dig\\;C:\\bin\\;C:\\curl\\;${SYS_PATH}`;
const LINUX_ENV = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' };

// Sizes are plausible compressed sizes; only the event text shows them.
const MB = 1024 * 1024;

function win(build: string, m: Omit<ImageManifest, 'os' | 'build'>): ImageManifest {
  return { os: 'windows', build, ...m };
}
function lin(m: Omit<ImageManifest, 'os' | 'env'> & { env?: Record<string, string> }): ImageManifest {
  return { os: 'linux', ...m, env: { ...LINUX_ENV, ...m.env } };
}

const servercore = (build: string): ImageManifest =>
  win(build, {
    cmd: ['c:\\windows\\system32\\cmd.exe'],
    user: 'ContainerAdministrator',
    env: windowsEnv(SYS_PATH),
    binaries: SERVERCORE_BINS,
    size: 1_550 * MB,
    defaultRunsForever: true,
  });
// Windows Server (the full server image, upstream's imageutils.WindowsServer): servercore plus the
// graphics stack, so dxdiag.exe is there (device_plugin.go runs it); published for 2022 and 2025.
const windowsServer = (build: string): ImageManifest => ({ ...servercore(build), binaries: [...SERVERCORE_BINS, 'dxdiag.exe'], size: 3_400 * MB });
// The DirectX device plugin upstream's device_plugin.go deploys; its tag names 1809, the sim serves
// the plugin for every build (a cluster running it elsewhere builds its own).
const directxPlugin = (build: string): ImageManifest =>
  win(build, {
    entrypoint: ['k8s-directx-device-plugin.exe'],
    user: 'ContainerAdministrator',
    env: windowsEnv(SYS_PATH),
    binaries: ['k8s-directx-device-plugin.exe'],
    daemons: ['k8s-directx-device-plugin.exe'],
    size: 120 * MB,
  });
const iis = (build: string): ImageManifest =>
  win(build, {
    entrypoint: ['C:\\ServiceMonitor.exe', 'w3svc'],
    user: 'ContainerAdministrator',
    env: windowsEnv(SYS_PATH),
    binaries: [...SERVERCORE_BINS, 'servicemonitor.exe', 'appcmd.exe'],
    size: 1_620 * MB,
    files: { 'C:\\inetpub\\wwwroot\\iisstart.htm': IIS_START_PAGE() },
  });
const nanoserver = (build: string): ImageManifest =>
  win(build, {
    cmd: ['c:\\windows\\system32\\cmd.exe'],
    user: 'ContainerUser',
    env: windowsEnv(NANO_PATH),
    binaries: NANOSERVER_BINS,
    size: 120 * MB,
    defaultRunsForever: true,
  });
// The Windows pause image: wincat for port-forward (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) work.port-forward).
const winPause = (build: string): ImageManifest =>
  win(build, {
    entrypoint: ['/pause.exe'],
    user: 'ContainerUser',
    env: windowsEnv(NANO_PATH),
    binaries: ['pause.exe', 'wincat.exe', 'cmd.exe'],
    size: 110 * MB,
  });
// agnhost on Windows: entrypoint /agnhost, default CMD pause (§6). User UNCONFIRMED: the e2e
// Windows images switch to ContainerAdministrator; the nonroot image is the ContainerUser one (§1).
const winAgnhost = (build: string): ImageManifest =>
  win(build, {
    entrypoint: ['/agnhost'],
    cmd: ['pause'],
    user: 'ContainerAdministrator',
    env: windowsEnv(E2E_PATH),
    binaries: [...NANOSERVER_BINS, ...BUSYBOX_APPLETS, 'agnhost.exe', 'dig.exe', 'powershell.exe', 'pwsh.exe'],
    size: 210 * MB,
  });
// busybox test image: entrypoint `cmd.exe /s /c`, powershell.exe is pwsh 6.2.7, hostname.exe with no newline (§0).
const winBusybox = (build: string): ImageManifest =>
  win(build, {
    entrypoint: ['cmd.exe', '/s', '/c'],
    user: 'ContainerAdministrator',
    env: windowsEnv(E2E_PATH),
    // uname: upstream host_process.go runs its bin\uname.exe (busybox-w32).
    binaries: [...NANOSERVER_BINS, ...BUSYBOX_APPLETS, 'uname', 'powershell.exe', 'pwsh.exe'],
    size: 180 * MB,
    defaultRunsForever: true,
  });
// nonroot: nanoserver + USER ContainerUser (§1, k8s:test/images/nonroot/Dockerfile_windows).
const winNonroot = (build: string): ImageManifest =>
  win(build, {
    cmd: ['cmd.exe'],
    user: 'ContainerUser',
    env: windowsEnv(NANO_PATH),
    binaries: NANOSERVER_BINS,
    size: 125 * MB,
    defaultRunsForever: true,
  });

// resource-consumer on Windows (k8s test/images/resource-consumer/Dockerfile_windows): Sysinternals
// Testlimit64.exe as C:\bin\testlimit.exe, ENTRYPOINT /consumer.exe (an HTTP server on 8080, played
// as an idle process), PATH C:\bin\;C:\curl\;... Base image and user UNCONFIRMED (the e2e busybox base).
const winResourceConsumer = (build: string): ImageManifest =>
  win(build, {
    entrypoint: ['/consumer.exe'],
    user: 'ContainerAdministrator',
    env: windowsEnv(E2E_PATH),
    binaries: [...NANOSERVER_BINS, ...BUSYBOX_APPLETS, 'testlimit.exe', 'consumer.exe', 'consume-cpu.exe'],
    size: 190 * MB,
    daemons: ['consumer.exe'],
  });
const linuxPause = lin({ entrypoint: ['/pause'], user: '65535', binaries: ['pause'], size: 321_000 });
const linuxAgnhost = lin({
  entrypoint: ['/agnhost'],
  cmd: ['pause'],
  user: 'root',
  binaries: [...LINUX_BUSYBOX_BINS, 'agnhost', 'curl', 'dig'],
  size: 51 * MB,
});
const linuxBusybox = lin({ cmd: ['sh'], user: 'root', binaries: LINUX_BUSYBOX_BINS, size: 2_200_000 });

function IIS_START_PAGE(): string {
  return (
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\r\n' +
    '<html xmlns="http://www.w3.org/1999/xhtml">\r\n<head>\r\n<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1" />\r\n' +
    '<title>IIS Windows Server</title>\r\n</head>\r\n<body>\r\n<div id="container">\r\n' +
    '<a href="http://go.microsoft.com/fwlink/?linkid=66138&amp;clcid=0x409"><img src="iisstart.png" alt="IIS" width="960" height="600" /></a>\r\n' +
    '</div>\r\n</body>\r\n</html>'
  );
}

const per = (builds: string[], f: (b: string) => ImageManifest) => builds.map(f);

/** A Linux add-on image whose process serves until stopped. */
function addon(repo: string, tagPattern: RegExp, binaries: string[]): ImageEntry[] {
  return [
    {
      repo,
      tags: [],
      tagPattern,
      manifests: [
        lin({
          entrypoint: [`/usr/local/bin/${binaries[0]}`],
          user: 'root',
          binaries,
          daemons: binaries,
          size: 30 * MB,
          defaultRunsForever: true,
        }),
      ],
    },
  ];
}

const hostProcessComponent = (b: string): ImageManifest =>
  win(b, {
    // The sig-windows-tools HostProcess images start their component from a pwsh script.
    user: 'NT AUTHORITY\\SYSTEM',
    env: windowsEnv(SYS_PATH),
    binaries: [],
    daemons: ['pwsh', 'pwsh.exe', 'powershell', 'powershell.exe'],
    size: 40 * MB,
    defaultRunsForever: true,
  });

/** The registry. Tags that name one build hold only that build (single-arch). */
export const IMAGES: ImageEntry[] = [
  ...MODERN.map(b => ({
    repo: 'mcr.microsoft.com/windows/servercore',
    tags: b === BUILD_2019 ? [WIN_TAG[b], '1809'] : [WIN_TAG[b]],
    manifests: [servercore(b)],
  })),
  ...MODERN.map(b => ({ repo: 'mcr.microsoft.com/windows/servercore/iis', tags: [`windowsservercore-${WIN_TAG[b]}`], manifests: [iis(b)] })),
  { repo: 'mcr.microsoft.com/windows/servercore/iis', tags: ['latest'], manifests: per(MODERN, iis) },
  // Nano Server on 2019: 1809 is the tag in use (k8s test/images/nonroot/BASEIMAGE); ltsc2019 is
  // also pinned by digest in public Dockerfiles (docs/images.md).
  ...MODERN.map(b => ({
    repo: 'mcr.microsoft.com/windows/nanoserver',
    tags: b === BUILD_2019 ? ['1809', WIN_TAG[b]] : [WIN_TAG[b]],
    manifests: [nanoserver(b)],
  })),
  { repo: 'mcr.microsoft.com/windows/servercore', tags: ['1709'], manifests: [servercore(BUILD_1709)] },
  ...[BUILD_2022, BUILD_2025].map(b => ({ repo: 'mcr.microsoft.com/windows/server', tags: [WIN_TAG[b]], manifests: [windowsServer(b)] })),
  { repo: 'mcr.microsoft.com/windows', tags: ['1809', 'ltsc2019'], manifests: [windowsServer(BUILD_2019)] },
  { repo: 'docker.io/e2eteam/k8s-directx-device-plugin', tags: ['0.9.0-1809'], manifests: per(MODERN, directxPlugin) },
  {
    repo: 'mcr.microsoft.com/powershell',
    tags: ['lts-nanoserver-ltsc2022'],
    manifests: [
      win(BUILD_2022, {
        cmd: ['pwsh.exe'],
        user: 'ContainerUser',
        env: windowsEnv(`C:\\Program Files\\PowerShell;${NANO_PATH}`),
        binaries: [...NANOSERVER_BINS, 'pwsh.exe', 'powershell.exe'],
        size: 150 * MB,
        defaultRunsForever: true,
      }),
    ],
  },
  // The HostProcess base image: no OS layer of its own, runs on any Windows build (host_process.go).
  {
    repo: 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image',
    tags: ['v1.0.0'],
    manifests: per(MODERN, b =>
      win(b, {
        user: 'ContainerUser',
        env: windowsEnv(SYS_PATH),
        binaries: [],
        size: 7_000,
      }),
    ),
  },
  // Multi-arch: Linux + Windows 1809 and ltsc2022 only (docs/images.md). A 2025 or 23H2 node
  // runs the ltsc2022 variant under the stable-ABI rule (selectManifest).
  { repo: 'registry.k8s.io/pause', tags: ['3.9', '3.10'], manifests: [linuxPause, ...per(K8S_IMAGE_BUILDS, winPause)] },
  { repo: 'mcr.microsoft.com/oss/kubernetes/pause', tags: ['3.9', '3.10'], manifests: [linuxPause, ...per(K8S_IMAGE_BUILDS, winPause)] },
  {
    repo: 'registry.k8s.io/e2e-test-images/agnhost',
    tags: ['2.47', '2.48', '2.49', '2.50', '2.51', '2.52', '2.53'],
    manifests: [linuxAgnhost, ...per(K8S_IMAGE_BUILDS, winAgnhost)],
  },
  {
    repo: 'registry.k8s.io/e2e-test-images/resource-consumer',
    tags: ['1.13'],
    manifests: [
      lin({ entrypoint: ['/consumer'], user: 'root', binaries: [...LINUX_BUSYBOX_BINS, 'consumer', 'consume-cpu'], size: 40 * MB, daemons: ['consumer'] }),
      ...per(K8S_IMAGE_BUILDS, winResourceConsumer),
    ],
  },
  { repo: 'registry.k8s.io/e2e-test-images/busybox', tags: ['1.36.1-1', '1.29-4'], manifests: [linuxBusybox, ...per(K8S_IMAGE_BUILDS, winBusybox)] },
  {
    repo: 'registry.k8s.io/e2e-test-images/nonroot',
    tags: ['1.4'],
    manifests: [
      lin({ entrypoint: ['/nonroot'], user: '1234', binaries: ['sh', 'nonroot', 'whoami', 'id'], size: 3 * MB }),
      ...per(K8S_IMAGE_BUILDS, winNonroot),
    ],
  },
  // The e2e NFS server (test/images/volume/nfs): Linux only, serves NFS on 2049.
  {
    repo: 'registry.k8s.io/e2e-test-images/volume/nfs',
    tags: ['1.4', '1.3'],
    manifests: [
      lin({
        entrypoint: ['/usr/local/bin/run_nfs.sh'],
        cmd: ['/exports'],
        user: 'root',
        files: { '/exports/index.html': NFS_INDEX_HTML },
        binaries: ['sh', 'bash', 'cat', 'ls', 'echo', 'sleep', 'run_nfs.sh'],
        size: 90 * MB,
      }),
    ],
  },
  // This repository's own image (Dockerfile): its entrypoint runs as a real child process of
  // this machine's Node (hostProcess.ts), so the in-cluster Job of ci/in-cluster/ is tested end to end.
  {
    repo: 'docker.io/library/wincheck',
    tags: ['0.1.0', 'latest'],
    manifests: [
      lin({
        entrypoint: ['node', WINCHECK_ENTRYPOINT],
        cmd: ['run'],
        user: '1000',
        workingDir: '/opt/wincheck',
        binaries: ['node'],
        size: 90 * MB,
      }),
    ],
  },
  { repo: 'docker.io/library/busybox', tags: ['latest', '1.36', '1.36.1', '1.37'], manifests: [linuxBusybox] },
  {
    repo: 'docker.io/library/nginx',
    tags: ['latest', '1.25', '1.27', 'stable', 'alpine'],
    manifests: [
      lin({
        entrypoint: ['/docker-entrypoint.sh'],
        cmd: ['nginx', '-g', 'daemon off;'],
        user: 'root',
        binaries: ['sh', 'bash', 'nginx', 'cat', 'ls', 'echo', 'sleep', 'curl', 'hostname'],
        size: 68 * MB,
      }),
    ],
  },
  // Cluster add-ons (kube-system): Linux components, and the Windows ones as HostProcess
  // images (sig-windows-tools), which carry no OS layer and so run on any Windows build.
  ...addon('registry.k8s.io/kube-proxy', /^v1\.\d+\.\d+$/, ['kube-proxy']),
  ...addon('registry.k8s.io/coredns/coredns', /^v1\.\d+\.\d+$/, ['coredns']),
  ...addon('registry.k8s.io/metrics-server/metrics-server', /^v0\.\d+\.\d+$/, ['metrics-server']),
  ...addon('docker.io/flannel/flannel', /^v0\.\d+\.\d+$/, ['flanneld']),
  ...addon('docker.io/calico/node', /^v3\.\d+\.\d+$/, ['calico-node']),
  // The Linux agents of CNIs whose Windows side the platform installs (sim/controllers/addons/network.ts MANAGED_CNI).
  ...addon('mcr.microsoft.com/containernetworking/azure-cns', /^v1\.\d+\.\d+$/, ['azure-cns']),
  ...addon('602401143452.dkr.ecr.us-west-2.amazonaws.com/amazon-k8s-cni', /^v1\.\d+\.\d+$/, ['aws-k8s-agent']),
  ...addon('quay.io/openshift/origin-ovn-kubernetes', /^4\.\d+$/, ['ovnkube']),
  ...addon('gke.gcr.io/netd', /^v0\.\d+\.\d+-gke\.\d+$/, ['netd']),
  { repo: 'docker.io/sigwindowstools/kube-proxy', tags: [], tagPattern: /^v1\.\d+\.\d+-[a-z]+-hostprocess$/, manifests: per(MODERN, hostProcessComponent) },
  { repo: 'docker.io/sigwindowstools/flannel', tags: [], tagPattern: /^v0\.\d+\.\d+-hostprocess$/, manifests: per(MODERN, hostProcessComponent) },
  { repo: 'docker.io/sigwindowstools/calico-node', tags: [], tagPattern: /^v3\.\d+\.\d+-hostprocess$/, manifests: per(MODERN, hostProcessComponent) },
  // The v1.9 Windows guide's images: Windows Server 1709 / 2016 builds. Under process isolation on a
  // 2019+ node containerd finds no matching platform (§7), as a real cluster would.
  { repo: 'docker.io/microsoft/iis', tags: ['windowsservercore-1709'], manifests: [iis(BUILD_1709)] },
  { repo: 'docker.io/microsoft/iis', tags: ['latest'], manifests: [iis(BUILD_2016)] },
  { repo: 'docker.io/microsoft/windowsservercore', tags: ['1709'], manifests: [servercore(BUILD_1709)] },
  { repo: 'docker.io/microsoft/windowsservercore', tags: ['ltsc2016', 'latest'], manifests: [servercore(BUILD_2016)] },
  {
    repo: 'docker.io/library/redis',
    tags: ['3.0-nanoserver'],
    manifests: [
      win(BUILD_2016, {
        entrypoint: ['redis-server.exe'],
        user: 'ContainerAdministrator',
        env: windowsEnv(`C:\\redis;${NANO_PATH}`),
        binaries: [...NANOSERVER_BINS, 'redis-server.exe', 'redis-cli.exe', 'powershell.exe'],
        size: 400 * MB,
      }),
    ],
  },
];

export interface ImageRef {
  /** The reference as written in the pod spec. */
  ref: string;
  /** Registry/repository after mirror stripping and docker.io defaulting. */
  repo: string;
  tag: string;
  digest?: string;
}

const DEFAULT_REGISTRY = 'docker.io';

/** Parses a reference, strips a configured registry mirror prefix and applies Docker Hub defaults. */
export function parseImageRef(ref: string, mirrors: string[] = []): ImageRef {
  let rest = ref.trim();
  for (const m of mirrors) {
    const prefix = m.replace(/\/+$/, '') + '/';
    if (rest.startsWith(prefix)) {
      rest = rest.slice(prefix.length);
      break;
    }
  }
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  let tag = 'latest';
  const slash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > slash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const first = rest.split('/')[0];
  const hasRegistry = rest.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (!hasRegistry) rest = `${DEFAULT_REGISTRY}/${rest.includes('/') ? rest : `library/${rest}`}`;
  return { ref, repo: rest.toLowerCase(), tag, digest };
}

export function findImage(r: ImageRef): ImageEntry | undefined {
  return IMAGES.find(e => e.repo === r.repo && (e.tags.includes(r.tag) || (e.tagPattern?.test(r.tag) ?? false)));
}

export interface PlatformWanted {
  os: ImageOS;
  /** Node build "10.0.20348". */
  build?: string;
  /** Hyper-V isolation: older Windows builds run in a utility VM (§7). */
  hyperv?: boolean;
  /** limitations.osBuildMismatch === false: any Windows build runs. */
  anyBuild?: boolean;
  /** breaks: process-isolation: even a matching build has no usable manifest. */
  brokenProcessIsolation?: boolean;
}

const buildNum = (b: string | undefined) => Number((b ?? '').split('.')[2] ?? 0);

/**
 * Process isolation: can a host of build `host` run an image of build `image`? Before 2022 the
 * builds must be equal; from 2022 on (stable ABI) a host runs images from the previous LTSC up to
 * its own build. With 2022 and 2025 the only stable-ABI releases, that floor is 2022 for every
 * newer host: 2025 (26100) and 23H2 (25398) run ltsc2022 images (containerd/platforms
 * checkWindowsHostAndContainerCompat; Microsoft's version-compatibility page).
 */
export function processIsolationCompatible(host: number, image: number): boolean {
  const ltsc2022 = buildNum(BUILD_2022);
  return host < ltsc2022 ? host === image : image >= ltsc2022 && image <= host;
}

/** containerd's platform matcher: the manifest the node would pull, or undefined ("no match for platform"). */
export function selectManifest(e: ImageEntry, want: PlatformWanted): ImageManifest | undefined {
  const sameOS = e.manifests.filter(m => m.os === want.os);
  if (want.os === 'linux') return sameOS[0];
  const exact = sameOS.find(m => m.build === want.build);
  const newestFirst = (ms: ImageManifest[]) => [...ms].sort((a, b) => buildNum(b.build) - buildNum(a.build));
  if (want.hyperv) {
    // The utility VM runs the image's own kernel: the newest build not newer than the host.
    return exact ?? newestFirst(sameOS.filter(m => buildNum(m.build) <= buildNum(want.build)))[0];
  }
  if (want.brokenProcessIsolation) return undefined;
  if (exact) return exact;
  // The documented limitation (osBuildMismatch) is the exact-build rule of process isolation,
  // which from 2022 on admits the stable-ABI range; lifting it lets any build run.
  const compatible = newestFirst(sameOS.filter(m => processIsolationCompatible(buildNum(want.build), buildNum(m.build))))[0];
  return compatible ?? (want.anyBuild ? sameOS[0] : undefined);
}

/** Stable sha256 digest of an image's manifest list (imageID) or a platform manifest. */
export function imageDigest(e: ImageEntry, m?: ImageManifest): string {
  const h = createHash('sha256').update(`${e.repo}:${e.tags[0]}`);
  if (m) h.update(`|${m.os}|${m.build ?? ''}`);
  return `sha256:${h.digest('hex')}`;
}

/** The image tag for a Windows build ("ltsc2022"), for fixtures and tests. */
export function windowsTagFor(build: string): string | undefined {
  return WIN_TAG[build.split('.').slice(0, 3).join('.')];
}
