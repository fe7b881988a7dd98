/**
 * Credentials in served text (CMP600) and credential files (CMP601).
 *
 * Content detection looks for the shapes issuers give their tokens — AWS access key ids, GitHub and GitLab
 * tokens, Slack tokens and webhooks, OpenAI and Anthropic keys, Google API keys, Stripe live keys, PEM private
 * key blocks (also base64-encoded) — and for high-entropy values assigned to a secret-sounding name in `.env`
 * form (`API_TOKEN=…`). The scan is linear and cheap on large trees: it jumps between the few characters every
 * shape must contain (`_`, `-`, `A`, `=`, `/`, found with `indexOf`) and looks around each one; nothing is
 * matched with a backtracking pattern. A finding never carries the secret: `mask` keeps its public prefix.
 */

export interface SecretFinding {
  /** What it looks like, for the message: "a GitHub token". */
  readonly kind: string;
  /** The value with everything after its public prefix replaced: `ghp_…` (40 characters). */
  readonly masked: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
}

interface Candidate {
  readonly kind: string;
  readonly start: number;
  readonly end: number;
  /** How many leading characters are the issuer's prefix, safe to show. */
  readonly prefix: number;
  /** Found by entropy, not by shape: when both find one value, the shape names it. */
  readonly generic?: boolean;
}

const isUpperOrDigit = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a);
const isAlnum = (c: number) => isUpperOrDigit(c) || (c >= 0x61 && c <= 0x7a);
const isTokenChar = (c: number) => isAlnum(c) || c === 0x5f || c === 0x2d;
const isBase64Char = (c: number) => isAlnum(c) || c === 0x2b || c === 0x2f || c === 0x3d;

/** The end of the run of `test` characters starting at `from`. */
function runEnd(text: string, from: number, test: (c: number) => boolean): number {
  let k = from;
  while (k < text.length && test(text.charCodeAt(k))) k++;
  return k;
}

/** True when the character before `at` cannot be part of a token (so a match there starts a word). */
function startsWord(text: string, at: number): boolean {
  return at === 0 || !isTokenChar(text.charCodeAt(at - 1));
}

/** Every credential-shaped value in `text`, in order of position. */
export function findSecrets(text: string): SecretFinding[] {
  const found: Candidate[] = [];
  scanUnderscores(text, found);
  scanHyphens(text, found);
  scanCapitalA(text, found);
  scanSlackWebhooks(text, found);
  scanEncodedPem(text, found);
  scanAssignments(text, found);
  if (found.length === 0) return [];
  found.sort((a, b) => a.start - b.start || Number(a.generic ?? false) - Number(b.generic ?? false));
  const out: SecretFinding[] = [];
  let lineStart = 0;
  let line = 1;
  let last = -1;
  for (const c of found) {
    if (c.start < last) continue; // one value, found twice (a GitHub token assigned in .env form)
    for (let i = text.indexOf('\n', lineStart); i !== -1 && i < c.start; i = text.indexOf('\n', i + 1)) {
      line++;
      lineStart = i + 1;
    }
    const value = text.slice(c.start, c.end);
    out.push({
      kind: c.kind,
      masked: `${value.slice(0, c.prefix)}… (${value.length} characters)`,
      line,
      column: c.start - lineStart + 1,
    });
    last = c.end;
  }
  return out;
}

/** `gh[pousr]_…` (GitHub), `github_pat_…` (GitHub fine-grained), `sk_live_…` / `rk_live_…` (Stripe). */
function scanUnderscores(text: string, out: Candidate[]): void {
  for (let i = text.indexOf('_'); i !== -1; i = text.indexOf('_', i + 1)) {
    if (i >= 3 && text.startsWith('gh', i - 3) && 'pousr'.includes(text[i - 1]!) && startsWord(text, i - 3)) {
      const end = runEnd(text, i + 1, isAlnum);
      if (end - i - 1 >= 36) out.push({ kind: 'a GitHub token', start: i - 3, end, prefix: 4 });
    } else if (i >= 6 && text.startsWith('github_pat_', i - 6) && startsWord(text, i - 6)) {
      const end = runEnd(text, i + 5, (c) => isAlnum(c) || c === 0x5f);
      if (end - i - 5 >= 70) out.push({ kind: 'a GitHub fine-grained token', start: i - 6, end, prefix: 11 });
    } else if (i >= 2 && text.startsWith('k_live_', i - 1) && (text[i - 2] === 's' || text[i - 2] === 'r')) {
      if (!startsWord(text, i - 2)) continue;
      const end = runEnd(text, i + 6, isAlnum);
      if (end - i - 6 >= 24) out.push({ kind: 'a Stripe live key', start: i - 2, end, prefix: 8 });
    }
  }
}

/** `glpat-…` (GitLab), `xox?-…` and `xapp-…` (Slack), `sk-ant-…` (Anthropic), `sk-…` (OpenAI), PEM blocks. */
function scanHyphens(text: string, out: Candidate[]): void {
  for (let i = text.indexOf('-'); i !== -1; i = text.indexOf('-', i + 1)) {
    if (text.charCodeAt(i + 1) === 0x2d) {
      if (text.startsWith('-----BEGIN ', i) && (i === 0 || text[i - 1] !== '-')) {
        const close = text.indexOf('-----', i + 11);
        const label = close === -1 || close - i > 80 ? '' : text.slice(i + 11, close);
        if (/^(?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?$/.test(label)) {
          out.push({ kind: `a private key (${label})`, start: i, end: close + 5, prefix: close + 5 - i });
        }
        i = close === -1 ? i + 10 : close + 4;
      }
      continue;
    }
    // Every shape below ends its prefix in one of these letters (glpa`t`, xox`b`/`a`/`p`/`r`/`s`, xap`p`,
    // s`k`): a hyphen after anything else (most, in prose and lists) is passed over without a comparison.
    const before = text.charCodeAt(i - 1);
    if (
      before !== 0x74 &&
      before !== 0x6b &&
      before !== 0x70 &&
      before !== 0x62 &&
      before !== 0x61 &&
      before !== 0x72 &&
      before !== 0x73
    ) {
      continue;
    }
    if (i >= 5 && text.startsWith('glpat', i - 5) && startsWord(text, i - 5)) {
      const end = runEnd(text, i + 1, isTokenChar);
      if (end - i - 1 >= 20) out.push({ kind: 'a GitLab token', start: i - 5, end, prefix: 6 });
    } else if (
      i >= 4 &&
      text.startsWith('xox', i - 4) &&
      'baprs'.includes(text[i - 1]!) &&
      startsWord(text, i - 4)
    ) {
      const end = runEnd(text, i + 1, (c) => isAlnum(c) || c === 0x2d);
      if (end - i - 1 >= 10) out.push({ kind: 'a Slack token', start: i - 4, end, prefix: 5 });
    } else if (i >= 4 && text.startsWith('xapp', i - 4) && startsWord(text, i - 4)) {
      const end = runEnd(text, i + 1, (c) => isAlnum(c) || c === 0x2d);
      if (end - i - 1 >= 10) out.push({ kind: 'a Slack app token', start: i - 4, end, prefix: 5 });
    } else if (i >= 2 && text.startsWith('sk', i - 2) && startsWord(text, i - 2)) {
      const end = runEnd(text, i + 1, isTokenChar);
      const value = text.slice(i + 1, end);
      if (value.startsWith('ant-') && end - i - 1 >= 24) {
        out.push({ kind: 'an Anthropic API key', start: i - 2, end, prefix: 7 });
      } else if (end - i - 1 >= 32 && /[0-9]/.test(value) && /[A-Za-z]/.test(value)) {
        out.push({ kind: 'an OpenAI API key', start: i - 2, end, prefix: 3 });
      }
    }
  }
}

/** `AKIA…` and its siblings (AWS access key ids), `AIza…` (Google API keys). */
function scanCapitalA(text: string, out: Candidate[]): void {
  for (let i = text.indexOf('A'); i !== -1; i = text.indexOf('A', i + 1)) {
    const next = text.charCodeAt(i + 1);
    if (next !== 0x4b && next !== 0x53 && next !== 0x42 && next !== 0x43 && next !== 0x49) continue; // K S B C I
    if (!startsWord(text, i)) continue;
    const four = text.slice(i, i + 4);
    if (four === 'AKIA' || four === 'ASIA' || four === 'ABIA' || four === 'ACCA') {
      const end = runEnd(text, i + 4, isUpperOrDigit);
      // Exactly 16 after the prefix; AWS's documented example ends in EXAMPLE and is not a key.
      if (end - i === 20 && !isTokenChar(text.charCodeAt(end)) && !text.startsWith('EXAMPLE', end - 7)) {
        out.push({ kind: 'an AWS access key id', start: i, end, prefix: 4 });
      }
    } else if (four === 'AIza') {
      const end = runEnd(text, i + 4, isTokenChar);
      if (end - i === 39) out.push({ kind: 'a Google API key', start: i, end, prefix: 4 });
    }
  }
}

/** `https://hooks.slack.com/services/T…/B…/…`. */
function scanSlackWebhooks(text: string, out: Candidate[]): void {
  // Keyed on the path: indexOf finds "/services/" several times faster than a pattern starting with "hooks".
  const host = 'hooks.slack.com';
  for (let i = text.indexOf('/services/'); i !== -1; i = text.indexOf('/services/', i + 1)) {
    if (!text.startsWith(host, i - host.length)) continue;
    const from = i + 10;
    const end = runEnd(text, from, (c) => isAlnum(c) || c === 0x2f);
    if (end - from >= 20) {
      out.push({ kind: 'a Slack webhook URL', start: i - host.length, end, prefix: host.length + 10 });
    }
  }
}

/** A PEM private key block, base64-encoded (as Kubernetes secrets and CI variables hold them). */
function scanEncodedPem(text: string, out: Candidate[]): void {
  const marker = 'LS0tLS1CRUdJTi'; // "-----BEGIN" in base64
  for (let i = text.indexOf(marker); i !== -1; i = text.indexOf(marker, i + 1)) {
    const end = runEnd(text, i, isBase64Char);
    if (end - i < 60) continue;
    const head = decodeBase64Head(text.slice(i, i + 80));
    if (/^-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY/.test(head)) {
      out.push({ kind: 'a base64-encoded private key', start: i, end, prefix: marker.length });
    }
    i = end;
  }
}

function decodeBase64Head(text: string): string {
  const usable = text.slice(0, text.length - (text.length % 4));
  return typeof atob === 'function' ? safeAtob(usable) : '';
}

function safeAtob(text: string): string {
  try {
    return atob(text);
  } catch {
    return '';
  }
}

/** Names whose value is a secret when it looks random. */
const SECRET_NAME = /(?:key|token|secret|passw(?:or)?d|pwd|credential|auth|private)/i;
/** Values that say they are not the secret. */
const PLACEHOLDER =
  /example|sample|dummy|placeholder|changeme|change-me|your[-_]|<|>|\$\{|\$\(|\{\{|xxxx|\*\*\*|\.\.\.|redacted|replace|test/i;

/**
 * `NAME=value` lines (`export NAME=value`, quotes allowed) whose name sounds secret and whose value looks
 * random: at least 16 characters without spaces, two kinds of characters among lower, upper and digits, and
 * at least 3.5 bits of entropy per character. Only the text before `=` is read to decide, so a prose line
 * costs nothing.
 */
function scanAssignments(text: string, out: Candidate[]): void {
  let lineStart = 0;
  let nextLine = text.indexOf('\n');
  for (let eq = text.indexOf('='); eq !== -1; eq = text.indexOf('=', eq + 1)) {
    while (nextLine !== -1 && nextLine < eq) {
      lineStart = nextLine + 1;
      nextLine = text.indexOf('\n', lineStart);
    }
    if (eq - lineStart > 120) continue;
    let nameStart = lineStart;
    while (nameStart < eq && (text[nameStart] === ' ' || text[nameStart] === '\t')) nameStart++;
    if (text.startsWith('export ', nameStart)) nameStart += 7;
    const name = text.slice(nameStart, eq).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name) || !SECRET_NAME.test(name)) continue;
    let valueStart = eq + 1;
    while (text[valueStart] === ' ' || text[valueStart] === '\t') valueStart++;
    const quote = text[valueStart] === '"' || text[valueStart] === "'" ? text[valueStart] : '';
    if (quote) valueStart++;
    let valueEnd = valueStart;
    const limit = Math.min(text.length, valueStart + 513);
    while (valueEnd < limit) {
      const c = text[valueEnd]!;
      if (c === '\n' || c === '\r' || c === ' ' || c === '\t' || c === quote || (c === '#' && !quote)) break;
      valueEnd++;
    }
    const value = text.slice(valueStart, valueEnd);
    if (value.length < 16 || value.length > 512 || PLACEHOLDER.test(value)) continue;
    const classes = Number(/[a-z]/.test(value)) + Number(/[A-Z]/.test(value)) + Number(/[0-9]/.test(value));
    if (classes < 2 || shannonEntropy(value) < 3.5) continue;
    out.push({
      kind: `a secret assigned to ${name}`,
      start: valueStart,
      end: valueEnd,
      prefix: 0,
      generic: true,
    });
  }
}

/** Bits per character of `value`'s character distribution. */
function shannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** File names that hold credentials and nothing else: key stores, SSH private keys, cloud credential files. */
const CREDENTIAL_NAME =
  /^(?:id_(?:rsa|dsa|ecdsa|ed25519)|credentials(?:\.json)?|client_secret[\w.-]*\.json|service[-_]account[\w.-]*\.json|[\w.-]+\.(?:p12|pfx|jks|keystore|kdbx|ppk))$/i;

/** Whether a file at `path` (any directory) is a credential file by its name. */
export function isCredentialPath(path: string): boolean {
  return CREDENTIAL_NAME.test(path.slice(path.lastIndexOf('/') + 1));
}
