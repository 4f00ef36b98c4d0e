// curl / curl.exe: HTTP(S) GET/HEAD through the twin, with curl's exit codes and
// stderr lines (docs/windows-commands.md §2). One message style is used for every image:
// curl 8.x ("... port P after N ms: ..."), the form the doc quotes.

import type { ProgramCtx } from '../types.ts';
import { httpRequest } from './http.ts';
import type { HttpFailure, HttpResponse } from './http.ts';
import { ABORTED_EXIT } from '../io.ts';
import { FsError } from '../types.ts';
import { resolvePosix, resolveWin } from '../winPaths.ts';

const USER_AGENT = 'curl/8.4.0';

interface CurlOpts {
  url?: string;
  silent: boolean;
  /** --no-progress-meter: no meter, errors still shown. */
  noMeter: boolean;
  showError: boolean;
  fail: boolean;
  insecure: boolean;
  head: boolean;
  include: boolean;
  verbose: boolean;
  follow: boolean;
  output?: string;
  writeOut?: string;
  connectTimeout?: number;
  maxTime?: number;
  headers: [string, string][];
}

const VALUE_SHORT = new Set(['o', 'w', 'm', 'H', 'X', 'A', 'd', 'u', 'e', 'x']);
const VALUE_LONG = new Set([
  'output',
  'write-out',
  'max-time',
  'connect-timeout',
  'header',
  'request',
  'user-agent',
  'data',
  'user',
  'retry',
  'retry-delay',
  'retry-max-time',
  'referer',
  'proxy',
  'resolve',
  'cacert',
  'interface',
]);

function parseArgs(args: string[]): CurlOpts | string {
  const o: CurlOpts = {
    noMeter: false,
    silent: false,
    showError: false,
    fail: false,
    insecure: false,
    head: false,
    include: false,
    verbose: false,
    follow: false,
    headers: [],
  };
  const setValue = (name: string, v: string): void => {
    switch (name) {
      case 'o':
      case 'output':
        o.output = v;
        break;
      case 'w':
      case 'write-out':
        o.writeOut = v;
        break;
      case 'm':
      case 'max-time':
        o.maxTime = Number(v);
        break;
      case 'connect-timeout':
        o.connectTimeout = Number(v);
        break;
      case 'H':
      case 'header': {
        const i = v.indexOf(':');
        if (i > 0) o.headers.push([v.slice(0, i).trim(), v.slice(i + 1).trim()]);
        break;
      }
      case 'A':
      case 'user-agent':
        o.headers.push(['User-Agent', v]);
        break;
      default:
        break;
    }
  };
  const setFlag = (name: string): boolean => {
    switch (name) {
      case 's':
      case 'silent':
        o.silent = true;
        return true;
      case 'S':
      case 'show-error':
        o.showError = true;
        return true;
      case 'f':
      case 'fail':
        o.fail = true;
        return true;
      case 'k':
      case 'insecure':
        o.insecure = true;
        return true;
      case 'I':
      case 'head':
        o.head = true;
        return true;
      case 'i':
      case 'include':
        o.include = true;
        return true;
      case 'v':
      case 'verbose':
        o.verbose = true;
        return true;
      case 'L':
      case 'location':
        o.follow = true;
        return true;
      default:
        return false;
    }
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      if (VALUE_LONG.has(name)) {
        const v = eq > 0 ? a.slice(eq + 1) : args[++i];
        if (v === undefined) return `option --${name}: requires parameter`;
        setValue(name, v);
      } else if (name === 'no-progress-meter') {
        o.noMeter = true;
      } else if (!setFlag(name) && !['compressed', 'http1.1', 'ssl-no-revoke', 'no-keepalive', 'globoff'].includes(name)) {
        return `option --${name}: is unknown`;
      }
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (VALUE_SHORT.has(c)) {
          const v = j + 1 < a.length ? a.slice(j + 1) : args[++i];
          if (v === undefined) return `option -${c}: requires parameter`;
          setValue(c, v);
          break;
        }
        if (!setFlag(c)) return `option -${c}: is unknown`;
      }
      continue;
    }
    o.url = a;
  }
  return o;
}

export async function runCurl(ctx: ProgramCtx): Promise<number> {
  const { host, io } = ctx;
  const nl = host.os === 'windows' ? '\r\n' : '\n';
  const parsed = parseArgs(ctx.args);
  if (typeof parsed === 'string') {
    io.stderr.write(`curl: ${parsed}${nl}curl: try 'curl --help' for more information${nl}`);
    return 2;
  }
  const o = parsed;
  const showErrors = !o.silent || o.showError;
  // Inbox curl.exe 7.55 (Windows Server 2019) prints its error right after the progress meter,
  // on the same line; newer curls (Server 2022's, Linux) end the meter's line first.
  const errorOnMeterLine = host.os === 'windows' && Number(/^10\.0\.(\d+)/.exec(host.windowsBuild ?? '')?.[1] ?? 0) < 20348;
  const err = (code: number, msg: string): number => {
    if (meterStarted && !errorOnMeterLine) io.stderr.write(nl);
    if (showErrors) io.stderr.write(`curl: (${code}) ${msg}${nl}`);
    writeOut(undefined, code);
    return code;
  };
  let meterStarted = false;
  const writeOut = (res: HttpResponse | undefined, exitCode: number, elapsedMs = 0, size = 0): void => {
    if (!o.writeOut) return;
    const text = o.writeOut
      .replace(/\\n/g, '\n')
      .replace(/\\r/g, '\r')
      .replace(/\\t/g, '\t')
      .replace(/%\{([a-z_]+)\}/g, (_m, v: string) => {
        switch (v) {
          case 'http_code':
          case 'response_code':
            return res ? String(res.statusCode).padStart(3, '0') : '000';
          case 'exitcode':
            return String(exitCode);
          case 'remote_ip':
            return res?.remoteAddress ?? '';
          case 'remote_port':
            return res ? String(res.port) : '';
          case 'size_download':
            return String(size);
          case 'time_total':
            return (elapsedMs / 1000).toFixed(6);
          case 'url_effective':
            return currentUrl?.toString() ?? '';
          default:
            return '';
        }
      });
    io.stdout.write(text);
  };
  if (!o.url) {
    io.stderr.write(`curl: no URL specified!${nl}curl: try 'curl --help' for more information${nl}`);
    return 2;
  }
  let currentUrl: URL | undefined;
  try {
    currentUrl = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(o.url) ? o.url : `http://${o.url}`);
  } catch {
    return err(3, 'URL using bad/illegal format or missing URL');
  }
  if (currentUrl.protocol !== 'http:' && currentUrl.protocol !== 'https:') {
    return err(1, `Protocol "${currentUrl.protocol.replace(':', '')}" not supported or disabled in libcurl`);
  }
  if (!o.silent && !o.noMeter) {
    io.stderr.write(
      `  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current${nl}                                 Dload  Upload   Total   Spent    Left  Speed${nl}`,
    );
    io.stderr.write('\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0');
    meterStarted = true;
  }
  // curl's default connect timeout is 300 s; -m bounds everything.
  const connectTimeoutMs = (o.connectTimeout ?? 300) * 1000;
  const maxTimeMs = o.maxTime !== undefined ? o.maxTime * 1000 : undefined;
  const started = Date.now();
  for (let hops = 0; ; hops++) {
    const url: URL = currentUrl;
    if (o.verbose) io.stderr.write(`*   Trying ${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}...${nl}`);
    const r = await httpRequest(host, {
      url,
      method: o.head ? 'HEAD' : 'GET',
      insecure: o.insecure,
      connectTimeoutMs,
      maxTimeMs: maxTimeMs !== undefined ? Math.max(1, maxTimeMs - (Date.now() - started)) : undefined,
      headers: [
        ['User-Agent', o.headers.find(([k]) => k.toLowerCase() === 'user-agent')?.[1] ?? USER_AGENT],
        ['Accept', '*/*'],
        ...o.headers.filter(([k]) => k.toLowerCase() !== 'user-agent'),
      ],
      signal: io.signal,
    });
    if (!r.ok) {
      if (r.failure.kind === 'aborted') return ABORTED_EXIT;
      const [code, msg] = failureMessage(r.failure, host.os, Date.now() - started);
      return err(code, msg);
    }
    const res = r.res;
    if (o.verbose) {
      io.stderr.write(`* Connected to ${url.hostname} (${res.remoteAddress}) port ${res.port}${nl}`);
      for (const l of r.requestHead.split('\r\n').filter(Boolean)) io.stderr.write(`> ${l}${nl}`);
      io.stderr.write(`>${nl}`);
      for (const l of res.rawHead.split('\r\n').filter(Boolean)) io.stderr.write(`< ${l}${nl}`);
      io.stderr.write(`<${nl}`);
    }
    const location = res.headers.find(([k]) => k.toLowerCase() === 'location')?.[1];
    if (o.follow && location && res.statusCode >= 300 && res.statusCode < 400 && hops < 50) {
      currentUrl = new URL(location, url);
      continue;
    }
    if (o.fail && res.statusCode >= 400) {
      // --fail writes no body (§2).
      return err(22, `The requested URL returned error: ${res.statusCode}`);
    }
    const out: Buffer[] = [];
    if (o.head || o.include) out.push(Buffer.from(res.rawHead, 'latin1'));
    if (!o.head) out.push(res.body);
    const data = Buffer.concat(out);
    if (o.output && !/^(nul|\/dev\/null)$/i.test(o.output)) {
      try {
        host.fs.write(host.os === 'windows' ? resolveWin(host.cwd ?? 'C:\\', o.output) : resolvePosix(host.cwd ?? '/', o.output), data);
      } catch (e) {
        if (e instanceof FsError) return err(23, `Failure writing output to destination`);
        throw e;
      }
    } else if (!o.output) {
      io.stdout.write(data);
    }
    if (meterStarted) {
      const n = fmtSize(res.body.length);
      io.stderr.write(`\r100 ${n.padStart(5)}  100 ${n.padStart(5)}    0     0  ${n.padStart(5)}      0 --:--:-- --:--:-- --:--:-- ${n.padStart(5)}${nl}`);
    }
    if (o.verbose) io.stderr.write(`* Connection #0 to host ${url.hostname} left intact${nl}`);
    writeOut(res, 0, Date.now() - started, res.body.length);
    return 0;
  }
}

function fmtSize(n: number): string {
  if (n < 100000) return String(n);
  if (n < 1024 * 10000) return `${Math.round(n / 1024)}k`;
  return `${Math.round(n / (1024 * 1024))}M`;
}

function failureMessage(f: Exclude<HttpFailure, { kind: 'aborted' }>, os: 'linux' | 'windows', elapsedMs: number): [number, string] {
  switch (f.kind) {
    case 'resolve':
      if (f.code === 'ETIMEDOUT') return [28, `Resolving timed out after ${elapsedMs} milliseconds`];
      return [6, `Could not resolve host: ${f.host}`];
    case 'connect': {
      const at = `Failed to connect to ${f.host} port ${f.port} after ${f.elapsedMs} ms`;
      if (f.code === 'ETIMEDOUT') return [28, `${at}: Timeout was reached`];
      // A Windows connect failure to an unreachable host surfaces as 28 (§2 quirk).
      if (f.code === 'EHOSTUNREACH') return os === 'windows' ? [28, `${at}: Could not connect to server`] : [7, `${at}: No route to host`];
      return [7, `${at}: Connection refused`];
    }
    case 'timeout':
      return [28, `Operation timed out after ${f.elapsedMs} milliseconds with ${f.bytes} bytes received`];
    case 'tls':
      if (f.certificate) {
        return [
          60,
          os === 'windows'
            ? 'schannel: SEC_E_UNTRUSTED_ROOT (0x80090325) - The certificate chain was issued by an authority that is not trusted.'
            : `SSL certificate problem: ${f.message}`,
        ];
      }
      return [35, `OpenSSL SSL_connect: ${f.message}`];
    case 'protocol':
      return f.message === 'Empty reply from server' ? [52, f.message] : [18, f.message];
  }
}
