// The DirectX device plugin (addons.directxDevicePlugin): the DaemonSet upstream's
// test/e2e/windows/device_plugin.go deploys ("directx-device-plugin" in kube-system, image
// e2eteam/k8s-directx-device-plugin, the kubelet's device-plugins directory mounted from the host,
// system-node-critical, on Windows nodes). With it on, each Windows node advertises
// microsoft.com/directx (sim/nodes/nodeObject.ts) and a container that limits one gets the GPU
// (sim/runtime/container.ts: DIRECTX_GPU_Name in its env, the display device in dxdiag).

import type { V1DaemonSet } from '@kubernetes/client-node';
import type { Profile } from '../../profiles/types.ts';
import { daemonSet } from './objects.ts';

export { DIRECTX_RESOURCE } from '../../nodes/nodeObject.ts';

export const DIRECTX_PLUGIN_IMAGE = 'e2eteam/k8s-directx-device-plugin:0.9.0-1809';

export function directxDevicePlugin(profile: Profile): V1DaemonSet[] {
  if (!profile.addons.directxDevicePlugin) return [];
  const mount = '/var/lib/kubelet/device-plugins';
  return [
    daemonSet(
      'directx-device-plugin',
      { 'daemonset-name': 'directx-device-plugin' },
      {
        priorityClassName: 'system-node-critical',
        tolerations: [{ key: 'CriticalAddonsOnly', operator: 'Exists' }],
        nodeSelector: { 'kubernetes.io/os': 'windows' },
        containers: [
          {
            name: 'hostdev',
            image: DIRECTX_PLUGIN_IMAGE,
            env: [{ name: 'DIRECTX_GPU_MATCH_NAME', value: ' ' }],
            volumeMounts: [{ name: 'device-plugin', mountPath: mount }],
          },
        ],
        volumes: [{ name: 'device-plugin', hostPath: { path: mount } }],
      },
    ),
  ];
}
