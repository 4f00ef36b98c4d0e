// The documented outcome of each Resources / Isolation / Security / Node feature on a
// current cluster (1.33, Windows Server 2022, containerd 1.7, metrics-server, Hyper-V
// RuntimeClass): what both the expectation tests and the sim runs must see.

export const DOCUMENTED: Record<string, string> = {
  'res.limits': 'supported',
  'res.cpu-limit-enforced': 'supported',
  'res.memory-no-oomkill': 'limited',
  'res.node-reserved': 'supported',
  'res.stats': 'supported',
  'res.stats-under-load': 'supported',
  'res.kubelet-resource-metrics': 'supported',
  'res.metrics-api': 'supported',
  'iso.process': 'supported',
  'iso.hyperv-runtimeclass': 'supported',
  'iso.hyperv-annotation': 'limited',
  'iso.hostprocess': 'supported',
  'sec.run-as-username': 'supported',
  'sec.linux-fields-rejected': 'limited',
  'sec.linux-fields-ignored': 'limited',
  'sec.privileged': 'limited',
  'sec.unknown-username-refused': 'supported',
  'sec.username-override': 'supported',
  'sec.run-as-nonroot': 'supported',
  'sec.run-as-nonroot-any-case': 'supported',
  'node.services': 'supported',
  'node.hns-network': 'supported',
  'node.runtime': 'supported',
  'node.os-supported': 'supported',
  'node.version-skew': 'supported',
  'node.pause-image': 'supported',
  'node.boot-id': 'supported',
};
