/**
 * Credentials are found by their issuers' shapes and by entropy in `.env` form, and never printed whole; the
 * scan is linear on hostile input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSecrets, isCredentialPath } from '../../../src/core/lint/secrets.js';

// Built from parts so this file does not itself hold a token-shaped string.
const join = (...parts: string[]) => parts.join('');
const random36 = 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const TOKENS: [string, string][] = [
  ['an AWS access key id', join('AKIA', 'Z7Q4MJ2XH3K8PLW5')],
  ['a GitHub token', join('ghp', '_', random36)],
  ['a GitHub token', join('ghs', '_', random36)],
  ['a GitHub fine-grained token', join('github', '_pat_', '11ABCDEFG0', random36, random36)],
  ['a GitLab token', join('glpat', '-', 'x9Yz8Wv7Ut6Sr5Qp4On3')],
  ['a Slack token', join('xoxb', '-', '1234567890-abcdefABCDEF')],
  ['a Slack app token', join('xapp', '-', '1-A0B1C2D3E4-12345')],
  ['an OpenAI API key', join('sk', '-proj-', random36)],
  ['an Anthropic API key', join('sk', '-ant-api03-', random36)],
  ['a Google API key', join('AIza', 'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q')],
  ['a Stripe live key', join('sk', '_live_', random36)],
];

describe('findSecrets', () => {
  it.each(TOKENS)('finds %s, masked, at its line and column', (kind, token) => {
    const text = `# Setup\n\nRun it with \`${token}\` set.\n`;
    const found = findSecrets(text);
    expect(found).toEqual([
      { kind, masked: expect.stringMatching(/^[^…]{0,11}… \(\d+ characters\)$/), line: 3, column: 14 },
    ]);
    expect(found[0]!.masked).not.toContain(token.slice(12));
  });

  it('finds private key blocks, plain and base64-encoded, and not certificates', () => {
    const pem = (label: string) => `-----BEGIN ${label}-----\nMIIEv\n-----END ${label}-----`;
    expect(findSecrets(pem('RSA PRIVATE KEY')).map((f) => f.kind)).toEqual([
      'a private key (RSA PRIVATE KEY)',
    ]);
    expect(findSecrets(pem('OPENSSH PRIVATE KEY'))).toHaveLength(1);
    expect(findSecrets(pem('CERTIFICATE'))).toEqual([]);
    const encoded = btoa(`${pem('PRIVATE KEY')}\n${'A'.repeat(60)}`);
    expect(findSecrets(`key: ${encoded}`).map((f) => f.kind)).toEqual(['a base64-encoded private key']);
    expect(findSecrets(btoa(`${pem('CERTIFICATE')}${'A'.repeat(60)}`))).toEqual([]);
  });

  it('finds random values assigned to secret names in .env form, not placeholders or prose', () => {
    const value = 'q8Zr2Lm4Xw9Tb7Kc1Vn6';
    expect(findSecrets(`export API_TOKEN=${value}\n`)).toEqual([
      { kind: 'a secret assigned to API_TOKEN', masked: '… (20 characters)', line: 1, column: 18 },
    ]);
    expect(findSecrets(`DB_PASSWORD="${value}"`)).toHaveLength(1);
    for (const text of [
      'API_TOKEN=your-token-here-please',
      'API_TOKEN=<paste the token here>',
      'API_TOKEN=$' + '{API_TOKEN_FROM_VAULT}',
      'API_TOKEN=aaaaaaaaaaaaaaaaaaaaaaaa',
      `PORT=${value}`,
      `The key = ${value} is what you get.`,
      `API_TOKEN=short1A`,
    ]) {
      expect(findSecrets(text), text).toEqual([]);
    }
  });

  it('ignores lookalikes: prose, kebab-case words, AWS documentation examples, short runs', () => {
    for (const text of [
      'A task-oriented skill; desk-research and risk-assessment for the AKIA family.',
      join('AKIA', 'IOSFODNN7EXAMPLE'),
      join('ghp', '_', 'short'),
      join('x', 'sk', '-', random36),
      'See https://example.com/sk-page and ASIA-PACIFIC.',
    ]) {
      expect(findSecrets(text), text).toEqual([]);
    }
  });

  it('reports each value once, in order, with the right lines', () => {
    const text = `one\nGITHUB_TOKEN=${join('ghp', '_', random36)}\n\n${join('AKIA', 'Z7Q4MJ2XH3K8PLW5')}\n`;
    expect(findSecrets(text).map((f) => [f.kind, f.line, f.column])).toEqual([
      ['a GitHub token', 2, 14],
      ['an AWS access key id', 4, 1],
    ]);
  });

  it('never echoes more than the public prefix of what it found', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TOKENS), fc.string({ maxLength: 20 }), ([, token], noise) => {
        for (const f of findSecrets(`${noise} ${token} ${noise}`))
          expect(f.masked).not.toContain(token.slice(11));
      }),
    );
  });

  it('stays linear on 1 MB of each character it keys on', () => {
    for (const unit of [
      '_',
      '-',
      'A',
      '=',
      'gh_',
      'sk-',
      '-----BEGIN ',
      'AKIA',
      'LS0tLS1CRUdJTi',
      'K=',
      'xoxb-',
    ]) {
      const text = unit.repeat(Math.ceil((1 << 20) / unit.length));
      expect(Array.isArray(findSecrets(text))).toBe(true);
      expect(Array.isArray(findSecrets(text.split('').join('\n')))).toBe(true);
    }
  });
});

describe('isCredentialPath', () => {
  it('knows key stores, SSH keys and cloud credential files, and nothing else', () => {
    for (const path of [
      'id_rsa',
      'assets/id_ed25519',
      'credentials.json',
      'assets/credentials',
      'client_secret_123.apps.json',
      'keys/service-account-prod.json',
      'cert.p12',
      'store.jks',
      'vault.kdbx',
    ]) {
      expect(isCredentialPath(path), path).toBe(true);
    }
    for (const path of ['id_rsa.pub', 'references/credentials.md', 'keynote.key', 'schema.json', 'pem.md']) {
      expect(isCredentialPath(path), path).toBe(false);
    }
  });
});
