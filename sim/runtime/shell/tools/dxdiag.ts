// dxdiag /t <file>: the DirectX diagnostic report as text, the lines upstream's
// test/e2e/windows/device_plugin.go looks for ("DirectX Version: DirectX 12"; for the GPU the
// DirectX device plugin gave the container, its display device with "Vendor ID: 0x…" and
// "DDI Version: 12"). A container without a GPU lists no display device. The sim writes these
// lines only, not the whole report. Real dxdiag returns at once and writes the file a moment later;
// the sim writes it before returning.

import type { ProgramCtx } from '../types.ts';
import { resolveWin } from '../winPaths.ts';

export async function runDxdiag(ctx: ProgramCtx): Promise<number> {
  const { host, args } = ctx;
  const i = args.findIndex(a => /^[/-]t$/i.test(a));
  const file = i >= 0 ? args[i + 1] : undefined;
  if (!file) return 0; // the GUI: nothing to show in a container
  const gpu = host.gpu;
  const lines = [
    '------------------',
    'System Information',
    '------------------',
    `      Machine name: ${host.hostname.toUpperCase()}`,
    '   DirectX Version: DirectX 12',
    '---------------',
    'Display Devices',
    '---------------',
    ...(gpu ? [`           Card name: ${gpu.name}`, `           Vendor ID: ${gpu.vendorId}`, '         DDI Version: 12'] : []),
  ];
  host.fs.write(resolveWin(host.cwd ?? 'C:\\', file), Buffer.from(`${lines.join('\r\n')}\r\n`));
  return 0;
}
