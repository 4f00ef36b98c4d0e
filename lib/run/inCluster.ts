// Getting a run's reports back without exec, when wincheck runs as a Job (ci/in-cluster/):
// summary.md printed last, so `kubectl logs job/...` ends with it, and --results-configmap,
// which stores summary.md, results.json and the JUnit files in a ConfigMap of the pod's own
// namespace. The ConfigMap is the user's output: it carries no run label, so it outlives the
// run's namespace; a later run replaces it.

import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeConfig, V1ConfigMap } from '@kubernetes/client-node';
import { makeClients } from '../cluster/client.ts';
import { apiStatusCode } from '../cluster/apiError.ts';
import { UsageError } from '../errors.ts';

/** The API server's limit on a ConfigMap is 1 MiB; keep room for keys and metadata. */
export const CONFIGMAP_DATA_BUDGET = 1_000_000;
export const RESULTS_LABELS = { 'app.kubernetes.io/name': 'wincheck', 'app.kubernetes.io/component': 'results' };
const NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

export function checkConfigMapName(name: string): void {
  if (!NAME.test(name)) throw new UsageError(`--results-configmap ${name} is not a valid ConfigMap name (lower-case letters, digits, '-' and '.')`);
}

/** The report files, most useful first: what does not fit the budget is left out from the end. */
export function resultsData(reportDir: string, budget = CONFIGMAP_DATA_BUDGET): { data: Record<string, string>; omitted: string[] } {
  const junit = existsSync(reportDir)
    ? readdirSync(reportDir)
        .filter(f => /^junit_.*\.xml$/.test(f))
        .sort()
    : [];
  const data: Record<string, string> = {};
  const omitted: string[] = [];
  let used = 0;
  for (const file of ['summary.md', 'results.json', ...junit]) {
    const path = join(reportDir, file);
    if (!existsSync(path)) continue;
    const text = readFileSync(path, 'utf8');
    const size = Buffer.byteLength(text) + file.length;
    if (used + size > budget) {
      omitted.push(`${file} (${Buffer.byteLength(text)} bytes)`);
      continue;
    }
    data[file] = text;
    used += size;
  }
  if (omitted.length)
    data['OMITTED.txt'] = `Left out (the ConfigMap's ${budget}-byte budget): ${omitted.join(', ')}. They are in the report directory ${reportDir}.\n`;
  return { data, omitted };
}

/** Creates or replaces the results ConfigMap; resolves with what was left out. */
export async function storeResultsConfigMap(kc: KubeConfig, reportDir: string, namespace: string, name: string): Promise<string[]> {
  const { core } = makeClients(kc);
  const { data, omitted } = resultsData(reportDir);
  const body: V1ConfigMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, labels: RESULTS_LABELS, annotations: { 'wincheck.io/written-at': new Date().toISOString() } },
    data,
  };
  try {
    await core.createNamespacedConfigMap({ namespace, body });
  } catch (e) {
    if (apiStatusCode(e) !== 409) throw e;
    await core.replaceNamespacedConfigMap({ name, namespace, body });
  }
  return omitted;
}

/** summary.md, to end the log with (nothing when the run wrote none). */
export function summaryText(reportDir: string): string | undefined {
  const path = join(reportDir, 'summary.md');
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}
