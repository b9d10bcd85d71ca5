import { describe, expect, it } from 'vitest';
import { safeRedirect } from '@fw/kernel/auth';

// Every one of these must come back as '/'.
const HOSTILE: string[] = [
  // absolute and scheme URLs
  'https://evil.com',
  'http://evil.com/',
  'HTTPS://EVIL.COM/path',
  'ftp://evil.com',
  'http:evil.com',
  'http:/evil.com',
  'https:\\\\evil.com',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(document.cookie)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'mailto:a@evil.com',
  'evil.com',
  'a/b',
  '',
  ' /a',
  // protocol-relative forms
  '//evil.com',
  '///evil.com',
  '////evil.com/path',
  '//evil.com/%2F..',
  // backslash forms
  '/\\evil.com',
  '\\\\evil.com',
  '\\/evil.com',
  '/\\/evil.com',
  '/a\\b',
  '/evil.com\\@good.example',
  // control characters anywhere (browsers strip tab/CR/LF)
  '\t//evil.com',
  '/\t/evil.com',
  '/\n/evil.com',
  '/\r\n/evil.com',
  '/a\u0000b',
  '/a\u007fb',
  '/\u0085evil.com',
  '/a?x=\r\nSet-Cookie:1',
  // percent-encoded tricks
  '/%2F%2Fevil.com',
  '/%2f/evil.com',
  '%2F%2Fevil.com',
  '/%5Cevil.com',
  '/%5c%5cevil.com',
  '/%2F%5Cevil.com',
  '/%5C%2Fevil.com',
  '/%09/evil.com',
  '/%0a/evil.com',
  '/%0d%0aSet-Cookie:x=1',
  '/%00',
  '/a?next=%5C',
  // double and triple encoding
  '/%252F%252Fevil.com',
  '/%25252F%25252Fevil.com',
  '/%255Cevil.com',
  '/%2509/evil.com',
  // dot segments that normalise to //host
  '/.//evil.com',
  '/%2e//evil.com',
  '/%2e%2e//evil.com',
  '/a/../..//evil.com',
  // malformed encoding and oversize
  '/%E0%A4%A',
  '/%',
  '/' + 'a'.repeat(5000),
];

const NON_STRINGS: unknown[] = [undefined, null, 0, 42, true, ['/a'], { toString: () => '/a' }, new String('/a'), Symbol('x')];

// [input, expected output]
const LEGIT: Array<[string, string]> = [
  ['/', '/'],
  ['/a', '/a'],
  ['/a/b?c=d', '/a/b?c=d'],
  ['/a#frag', '/a#frag'],
  ['/caf%C3%A9', '/caf%C3%A9'],
  ['/dashboard/settings/', '/dashboard/settings/'],
  ['/users/42/edit', '/users/42/edit'],
  ['/search?q=hello+world&page=2', '/search?q=hello+world&page=2'],
  ['/a?redirect=%2Fb', '/a?redirect=%2Fb'],
  ['/@me', '/@me'],
  ['/a:b', '/a:b'],
  ['/docs/file.v2.html#section-3', '/docs/file.v2.html#section-3'],
  ['/a/./b/../c', '/a/c'],
  ['/a b', '/a%20b'],
  ['/café', '/caf%C3%A9'],
];

describe('safeRedirect', () => {
  it('has at least 40 hostile forms and 10 legitimate paths', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(40);
    expect(LEGIT.length).toBeGreaterThanOrEqual(10);
  });

  it.each(HOSTILE.map((h) => [JSON.stringify(h).slice(0, 60), h]))('hostile %s → /', (_label, value) => {
    expect(safeRedirect(value)).toBe('/');
  });

  it.each(NON_STRINGS.map((v) => [String(typeof v), v]))('non-string (%s) → /', (_label, value) => {
    expect(safeRedirect(value)).toBe('/');
  });

  it.each(LEGIT)('legitimate %j → %j', (value, expected) => {
    expect(safeRedirect(value)).toBe(expected);
  });

  it('never returns anything a browser would read as another origin', () => {
    for (const value of [...HOSTILE, ...LEGIT.map(([v]) => v)]) {
      const out = safeRedirect(value);
      expect(new URL(out, 'https://app.example').origin).toBe('https://app.example');
      expect(out).toMatch(/^\/(?![/\\])/u);
      expect(out).not.toMatch(/[\u0000-\u001f\u007f\\]/u);
    }
  });
});
