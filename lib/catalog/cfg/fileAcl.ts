// cfg.configmap-file-acl: upstream test/e2e/windows/demo.go "Windows tests check file permissions
// container should have right permissions". A ConfigMap item mapped to a nested path
// (path/to/data-2) in a readOnly volume: its content is the key's value, and its ACL, read the way
// upstream's agnhost mounttest reads it (test/images/agnhost/mounttest/filePermissions.ps1: the
// owner's, the group's and the Users rule's read/write/execute bits), is mode 0775, which demo.go
// expects on Windows ("the default OS file modes, which are 0644 for Linux and 0775 for Windows").
// The ACL is read as JSON (Get-Acl projected to owner, group and rules), never as Format-List text.

import { cite, sources, type Citation } from '../../facts/sources.ts';
import { supported } from '../expect.ts';
import { control, podStarted } from '../kit/observe.ts';
import { fixturePodReady } from '../kit/podWaits.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';

const NAME = 'configmap-acl';
const FILE = 'C:\\etc\\configmap-volume\\path\\to\\data-2';
const VALUE = 'value-2';
/** demo.go's getFileModeRegex: the default mode of a Windows file as mounttest prints it. */
const WINDOWS_DEFAULT_MODE = '0775';

/** One rule of the probe's JSON: identity, FileSystemRights as a number, Allow or Deny. */
export interface AclRule {
  Identity: string;
  Rights: number;
  Type: string;
}
export interface FileAclJson {
  Owner: string;
  Group: string;
  Access: AclRule[];
}

// filePermissions.ps1's masks: read = read data | read attributes; write = write data | append
// data | write attributes | write EA; execute = read data | file execute.
const READ = 0x0001 | 0x0080;
const WRITE = 0x0002 | 0x0004 | 0x0100 | 0x0010;
const EXECUTE = 0x0001 | 0x0020;

/**
 * The mode upstream's filePermissions.ps1 gives an ACL ("0775"): for each Allow rule its rwx bits,
 * kept as the user's when the rule names the owner, the group's when it names the group, the
 * others' when its identity contains "users" (the script's own rule, a later rule winning).
 */
export function aclMode(acl: FileAclJson): string {
  let user = 0;
  let group = 0;
  let other = 0;
  for (const r of acl.Access) {
    if (r.Type !== 'Allow') continue;
    const bits = ((r.Rights & READ) === READ ? 4 : 0) | ((r.Rights & WRITE) === WRITE ? 2 : 0) | ((r.Rights & EXECUTE) === EXECUTE ? 1 : 0);
    if (r.Identity === acl.Owner) user = bits;
    if (r.Identity === acl.Group) group = bits;
    if (r.Identity.toLowerCase().includes('users')) other = bits;
  }
  return `0${user}${group}${other}`;
}

/** The probe's JSON, or why it is not one (a single rule may come as an object, not an array). */
export function parseAcl(stdout: string): FileAclJson | string {
  try {
    const o = JSON.parse(stdout.trim()) as Partial<FileAclJson> & { Access?: AclRule[] | AclRule };
    if (typeof o.Owner !== 'string' || typeof o.Group !== 'string') return 'no Owner and Group';
    const access = o.Access === undefined || o.Access === null ? [] : Array.isArray(o.Access) ? o.Access : [o.Access];
    if (!access.every(r => typeof r?.Identity === 'string' && typeof r.Rights === 'number' && typeof r.Type === 'string'))
      return 'a rule without Identity, Rights or Type';
    return { Owner: o.Owner, Group: o.Group, Access: access };
  } catch (e) {
    return `not JSON (${(e as Error).message})`;
  }
}

const FILE_PERMISSIONS_PS1: Citation = {
  title: 'Kubernetes test image agnhost mounttest filePermissions.ps1',
  version: 'v1.33',
  url: 'https://github.com/kubernetes/kubernetes/blob/release-1.33/test/images/agnhost/mounttest/filePermissions.ps1',
  detail: "a Windows file's mode from Get-Acl: the owner's, the group's and the Users rule's read/write/execute rights",
};

async function configMapFileAclProbe(ctx: CheckContext): Promise<Observation> {
  const r = await fixturePodReady(ctx, NAME);
  if (!r.ok) return r.observation;
  const t = ctx.podTransport(NAME, 'windows');
  const node = r.pod.spec?.nodeName;
  const evidence: EvidenceItem[] = [];
  ctx.step(`reading ${FILE} (ConfigMap key data-2 mapped to path/to/data-2) and its ACL (Get-Acl as JSON)`);
  const [content, acl] = await Promise.all([ctx.probe(t, { kind: 'read-file', path: FILE }), ctx.probe(t, { kind: 'file-acl', path: FILE })]);
  evidence.push(content.evidence, acl.evidence);
  const got = content.evidence.stdout.trim();
  const started = podStarted(r.pod, 'with the ConfigMap volume');
  if (!content.ok || got !== VALUE)
    return {
      works: false,
      summary: content.ok ? `${FILE} holds "${got.slice(0, 40)}", not the key's "${VALUE}"` : `${FILE} could not be read: ${content.detail}`,
      evidence,
      node,
      control: started,
    };
  if (!acl.ok) throw new Error(`Get-Acl of ${FILE} failed, so its permissions cannot be judged: ${acl.detail}`);
  const parsed = parseAcl(acl.evidence.stdout);
  if (typeof parsed === 'string') throw new Error(`the ACL of ${FILE} could not be read: ${parsed}`);
  const mode = aclMode(parsed);
  const rules = parsed.Access.map(a => `${a.Identity} ${a.Type} ${a.Rights}`).join(', ');
  evidence.push(`ACL of ${FILE}: owner ${parsed.Owner}, group ${parsed.Group}; ${rules || 'no rules'}; mode ${mode} as filePermissions.ps1 reads it`);
  const readable = control(true, `${FILE} reads "${VALUE}", the ConfigMap key's value`);
  return mode === WINDOWS_DEFAULT_MODE
    ? {
        works: true,
        summary: `${FILE} reads "${VALUE}" and its ACL (owner ${parsed.Owner}, group ${parsed.Group}, ${parsed.Access.length} rules) is mode ${mode}, the Windows default upstream expects`,
        evidence,
        node,
        control: readable,
      }
    : {
        works: false,
        summary: `${FILE}'s ACL reads as mode ${mode}, not the Windows default ${WINDOWS_DEFAULT_MODE} upstream expects (owner ${parsed.Owner}, group ${parsed.Group}; ${rules || 'no rules'})`,
        evidence,
        node,
        control: readable,
      };
}

export const features: Feature[] = [
  {
    id: 'cfg.configmap-file-acl',
    area: 'config',
    title: "A ConfigMap item's file in a mounted volume: its content and its ACL (mode 0775 as upstream reads it)",
    needs: ['windows-node'],
    fixtures: [{ id: NAME, template: 'configmap-acl', os: 'windows' }],
    expect: () =>
      supported(
        `a ConfigMap item mapped to a nested path is readable with the key's value, and its ACL gives the owner and group full control and Users read and execute (mode ${WINDOWS_DEFAULT_MODE} as upstream's agnhost mounttest reads Get-Acl)`,
        sources(cite.e2eTestMaster('demo.go', '"Windows tests check file permissions container should have right permissions"'), FILE_PERMISSIONS_PS1),
      ),
    probe: configMapFileAclProbe,
  },
];
