// A per-build instance's id, in a module of its own that imports nothing: the reports (results.json)
// need it, and the CLI's start must not load the client library through lib/run/builds.ts.

/** "work.iis-pod [ltsc2022]" (lib/report/buildTable.ts splits it). */
export const instanceId = (id: string, label: string) => `${id} [${label}]`;
