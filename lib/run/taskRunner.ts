// The run as named tasks (Playwright's taskRunner): setups in order, teardowns in reverse for
// every task whose setup started, errors collected. Interrupts and the deadline abort the
// shared signal; setups honour it and settle, so teardown never races a half-done setup.

export interface Task<C> {
  title: string;
  setup?(ctx: C): Promise<void>;
  teardown?(ctx: C): Promise<void>;
}

export type TaskStatus = 'passed' | 'failed' | 'interrupted' | 'timedout';

export interface TaskRunOptions {
  abort: AbortController;
  /** Whole-run deadline, ms. */
  timeoutMs?: number;
  onError(title: string, error: unknown): void;
}

export class TaskRunner<C> {
  private readonly _tasks: Task<C>[] = [];
  constructor(private readonly _opts: TaskRunOptions) {}

  add(task: Task<C>): this {
    this._tasks.push(task);
    return this;
  }

  async run(ctx: C): Promise<{ status: TaskStatus; firstError?: unknown }> {
    const { abort } = this._opts;
    let timedOut = false;
    const timer = this._opts.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          abort.abort(new Error('run timed out'));
        }, this._opts.timeoutMs)
      : undefined;
    const started: Task<C>[] = [];
    let status: TaskStatus = 'passed';
    let firstError: unknown;
    try {
      for (const task of this._tasks) {
        if (abort.signal.aborted) break;
        started.push(task);
        try {
          await task.setup?.(ctx);
        } catch (e) {
          if (!abort.signal.aborted) {
            firstError ??= e;
            this._opts.onError(task.title, e);
            status = 'failed';
            break;
          }
        }
      }
    } finally {
      clearTimeout(timer);
    }
    if (abort.signal.aborted) status = timedOut ? 'timedout' : 'interrupted';
    for (const task of started.reverse()) {
      try {
        await task.teardown?.(ctx);
      } catch (e) {
        this._opts.onError(`${task.title} (teardown)`, e);
        if (status === 'passed') status = 'failed';
        firstError ??= e;
      }
    }
    return { status, firstError };
  }
}
