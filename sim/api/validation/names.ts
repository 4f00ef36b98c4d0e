// The name syntaxes of apimachinery's validation package (DNS-1123/1035 names,
// label keys and values, environment variable names), with its exact messages.

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?';
const QUALIFIED_NAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = `(${QUALIFIED_NAME})?`;
const ENV_VAR_NAME = '[-._a-zA-Z][-._a-zA-Z0-9]*';

const full = (re: string) => new RegExp(`^(?:${re})$`);

function regexError(msg: string, re: string, ...examples: string[]): string {
  const ex = examples.map(e => `'${e}'`).join(',  or ');
  return `${msg} (e.g. ${ex}, regex used for validation is '${re}')`;
}

const maxLen = (n: number) => `must be no more than ${n} characters`;

export function isDNS1123Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLen(63));
  if (!full(DNS1123_LABEL).test(v))
    errs.push(
      regexError(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
        DNS1123_LABEL,
        'my-name',
        '123-abc',
      ),
    );
  return errs;
}

export function isDNS1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push(maxLen(253));
  if (!full(DNS1123_SUBDOMAIN).test(v))
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN,
        'example.com',
      ),
    );
  return errs;
}

export function isDNS1035Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLen(63));
  if (!full(DNS1035_LABEL).test(v))
    errs.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        DNS1035_LABEL,
        'my-name',
        'abc-123',
      ),
    );
  return errs;
}

/** Label and annotation keys: [prefix/]name. */
export function isQualifiedName(v: string): string[] {
  const parts = v.split('/');
  let name = v;
  const errs: string[] = [];
  if (parts.length === 2) {
    const [prefix, n] = parts;
    name = n;
    if (!prefix) errs.push('prefix part must be non-empty');
    else errs.push(...isDNS1123Subdomain(prefix).map(e => `prefix part ${e}`));
  } else if (parts.length > 2) {
    return [
      regexError(
        "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        QUALIFIED_NAME,
        'MyName',
        'my.name',
        '123-abc',
      ) + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (!name) errs.push('name part must be non-empty');
  else {
    if (name.length > 63) errs.push(`name part ${maxLen(63)}`);
    if (!full(QUALIFIED_NAME).test(name))
      errs.push(
        regexError(
          "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
          QUALIFIED_NAME,
          'MyName',
          'my.name',
          '123-abc',
        ),
      );
  }
  return errs;
}

export function isLabelValue(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLen(63));
  if (!full(LABEL_VALUE).test(v))
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  return errs;
}

/** Before RelaxedEnvironmentVariableValidation: a C-identifier-like name (dots and dashes allowed). */
export function isEnvVarName(v: string): string[] {
  const errs: string[] = [];
  if (!full(ENV_VAR_NAME).test(v))
    errs.push(
      regexError(
        "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
        ENV_VAR_NAME,
        'my.env-name',
        'MY_ENV.NAME',
        'MyEnvName1',
      ),
    );
  if (v === '.') errs.push("must not be '.'");
  else if (v === '..') errs.push("must not be '..'");
  else if (v.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** KEP-4369 (beta, on by default in 1.32): any printable ASCII except '='. */
export function isRelaxedEnvVarName(v: string): string[] {
  for (const ch of v) {
    const c = ch.codePointAt(0)!;
    if (c < 32 || c > 126 || ch === '=') return ["a valid environment variable name must consist only of printable ASCII characters other than '='"];
  }
  return [];
}
