// Signals this process has received and acted on (run.ts records them), so a launcher watcher
// (cli/launcher.ts) does not add a second one, which would mean "exit at once".
export const signalsReceived: NodeJS.Signals[] = [];
