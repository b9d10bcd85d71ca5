import { describe, expect, test } from 'vitest';
import {
  APP_INI_KEYS,
  CONFIG_ALIASES,
  CONFIG_KEYS,
  ConfigValidationError,
  coerceValue,
  configDefaults,
  parseAppIni,
  parseConfig,
  parseRateLimit,
  parseRateLimits,
  type ConfigLayer,
} from '@fw/schemas';

/** The error parseConfig throws, or a failure when it does not throw. */
function errorOf(layers: ConfigLayer[]): ConfigValidationError {
  try {
    parseConfig(layers);
  } catch (err) {
    if (err instanceof ConfigValidationError) return err;
    throw err;
  }
  throw new Error('parseConfig did not throw');
}

const layer = (source: string, values: Record<string, unknown>): ConfigLayer => ({ source, values });

describe('defaults', () => {
  test('no layers: every documented default', () => {
    const c = parseConfig([]);
    expect(c).toEqual({
      DEBUG: false,
      HOST: '127.0.0.1',
      PORT: 8000,
      APP_FRONTEND: { type: 'htmx', alpine: false },
      FW_TAILWIND: false,
      FW_THEMES: true,
      FW_CHECK_FRONTEND: false,
      FW_BUILD_FRONTEND: false,
      FW_PROCESSING: true,
      MAIL_PORT: 587,
      MAIL_USE_TLS: false,
      MAIL_USE_STARTTLS: true,
      MAIL_TLS_REJECT_UNAUTHORIZED: true,
      PROXY_FIX: false,
      PROXY_TRUSTED_HOSTS: [],
      RATELIMIT_ENABLED: true,
      RATELIMIT_IPV6_PREFIX: 64,
      EVENTS_EVENT_QUEUE_SIZE: 100,
      WS_MAX_PAYLOAD: 65_536,
      WS_ALLOWED_ORIGINS: [],
      WS_MAX_BUFFERED_BYTES: 1_048_576,
      CACHE_TYPE: 'file',
      CACHE_DIR: './var/cache',
      EXT_I18N: false,
      I18N_DEFAULT_LOCALE: 'en',
      I18N_SUPPORTED_LOCALES: ['en'],
      DATABASE_BINDS: { main: 'file:./var/main.db' },
      SECURITY_MODELS_DB_BIND: 'main',
      AUTH_ROLES: [],
      AUTH_PERMISSIONS: [],
      AUTH_TWO_FACTOR: true,
      SECURITY_HEADERS: true,
      SECURITY_CSP: {},
      SECURITY_CSP_MODE: 'enforce',
      SECURITY_FRAME_OPTIONS: 'DENY',
      SECURITY_REFERRER_POLICY: 'strict-origin-when-cross-origin',
      SECURITY_HSTS_MAX_AGE: 31_536_000,
      SECURITY_HSTS_INCLUDE_SUBDOMAINS: true,
      SECURITY_HSTS_PRELOAD: false,
      SECURITY_HEADER_OVERRIDES: {},
      FW_ALPINE_BUILD: 'csp',
      FW_ENV: 'production',
      BODY_PARSER: true,
      BODY_JSON_LIMIT: 1_048_576,
      BODY_FORM_LIMIT: 102_400,
      BODY_TEXT_LIMIT: 102_400,
      SERVER_HEADERS_TIMEOUT: 20,
      SERVER_REQUEST_TIMEOUT: 120,
      SERVER_KEEP_ALIVE_TIMEOUT: 65,
      SERVER_MAX_CONNECTIONS: 10_000,
      SERVER_DRAIN_DELAY: 5,
      SERVER_DRAIN_TIMEOUT: 10,
      WEB_CONCURRENCY: 1,
      FW_INSTANCES: 1,
      HEALTH_ENABLED: true,
      HEALTH_LIVE_PATH: '/healthz',
      HEALTH_READY_PATH: '/readyz',
      HEALTH_ACCESS: 'public',
      HEALTH_CHECK_TIMEOUT: 2,
      REDIS_TIMEOUT: 2,
      DATABASE_CONNECT_TIMEOUT: 5,
      DATABASE_STATEMENT_TIMEOUT: 30,
      WS_PING_INTERVAL: 30,
      FW_LOG_LEVEL: 'info',
      FW_LOG_REQUESTS: true,
    });
    expect(c.SECRET_KEY).toBeUndefined();
    expect(configDefaults()).toEqual(c);
  });

  test('default objects are fresh per parse (no shared mutable state)', () => {
    const a = parseConfig([]);
    (a.AUTH_ROLES as string[]).push('admin');
    (a.DATABASE_BINDS as Record<string, string>).other = 'file:x';
    const b = parseConfig([]);
    expect(b.AUTH_ROLES).toEqual([]);
    expect(b.DATABASE_BINDS).toEqual({ main: 'file:./var/main.db' });
  });
});

describe('layering', () => {
  test('later layers win key by key; objects are replaced whole', () => {
    const c = parseConfig([
      layer('fw.json', { DEBUG: true, PORT: 9000, DATABASE_BINDS: { main: 'file:a.db', logs: 'file:logs.db' } }),
      layer('app_configs/x.ini', { PORT: '9100', SECRET_KEY: 's3cret' }),
      layer('environment', { DATABASE_BINDS: '{"main":"postgres://127.0.0.1/db"}' }),
    ]);
    expect(c.DEBUG).toBe(true);
    expect(c.PORT).toBe(9100);
    expect(c.SECRET_KEY).toBe('s3cret');
    expect(c.DATABASE_BINDS).toEqual({ main: 'postgres://127.0.0.1/db' });
  });

  test('an empty string unsets a typed key in that layer (the lower layer or default applies)', () => {
    const c = parseConfig([layer('fw.json', { PORT: 9000, DEBUG: true }), layer('environment', { PORT: '', DEBUG: ' ' })]);
    expect(c.PORT).toBe(9000);
    expect(c.DEBUG).toBe(true);
  });

  test('undefined values are ignored', () => {
    expect(parseConfig([layer('environment', { DEBUG: undefined })]).DEBUG).toBe(false);
  });

  test('errors name the layer that supplied the bad value', () => {
    const err = errorOf([layer('fw.json', { PORT: 'x' }), layer('environment', { DEBUG: 'maybe' })]);
    expect(err.message).toBe(
      [
        'environment: DEBUG: got "maybe"; expected a boolean (true or false)',
        'fw.json: PORT: got "x"; expected an integer port number 0-65535',
      ].join('\n'),
    );
    expect(err.problems.map((p) => [p.source, p.path])).toEqual([
      ['environment', 'DEBUG'],
      ['fw.json', 'PORT'],
    ]);
  });

  test('a later good value hides an earlier bad one', () => {
    expect(parseConfig([layer('fw.json', { PORT: 'x' }), layer('environment', { PORT: '1' })]).PORT).toBe(1);
  });

  test('a layer that is not an object is reported', () => {
    const err = errorOf([{ source: 'app_configs/x.ini', values: 'oops' as unknown as Record<string, unknown> }]);
    expect(err.message).toBe('app_configs/x.ini: (top level): got "oops"; expected an object of config keys');
  });
});

describe('coercion of raw strings', () => {
  test.each([
    ['1', true], ['0', false], ['true', true], ['FALSE', false], ['Yes', true], ['no', false], ['ON', true], ['off', false], [' true ', true],
  ])('boolean %j -> %s', (raw, value) => {
    expect(parseConfig([layer('env', { DEBUG: raw })]).DEBUG).toBe(value);
    expect(coerceValue('boolean', raw)).toBe(value);
  });

  test('numbers 0 and 1 are booleans for boolean keys', () => {
    expect(parseConfig([layer('fw.json', { DEBUG: 1, PROXY_FIX: 0 })])).toMatchObject({ DEBUG: true, PROXY_FIX: false });
  });

  test('integers', () => {
    expect(parseConfig([layer('env', { PORT: '8080', EVENTS_EVENT_QUEUE_SIZE: '+5', MAIL_PORT: ' 465 ' })])).toMatchObject({
      PORT: 8080,
      EVENTS_EVENT_QUEUE_SIZE: 5,
      MAIL_PORT: 465,
    });
  });

  test('lists: comma separated or JSON', () => {
    const c = parseConfig([
      layer('env', {
        AUTH_ROLES: 'admin, editor,,',
        AUTH_PERMISSIONS: '["posts:write","posts:read"]',
        PROXY_TRUSTED_HOSTS: '10.0.0.0/8,127.0.0.1,::1,fd00::/8,loopback',
        I18N_SUPPORTED_LOCALES: 'en,de,pt_BR',
      }),
    ]);
    expect(c.AUTH_ROLES).toEqual(['admin', 'editor']);
    expect(c.AUTH_PERMISSIONS).toEqual(['posts:write', 'posts:read']);
    expect(c.PROXY_TRUSTED_HOSTS).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', 'loopback']);
    expect(c.I18N_SUPPORTED_LOCALES).toEqual(['en', 'de', 'pt-BR']); // canonical BCP 47: Intl refuses pt_BR
  });

  test('FW_OCEAN_URL: an http(s) or file: URL, or a path (docs/ocean.md); another scheme is refused', () => {
    for (const url of ['https://ocean.example.com/index.json', 'file:///srv/ocean/index.json', './ocean/index.json']) {
      expect(parseConfig([layer('fw.json', { FW_OCEAN_URL: url })]).FW_OCEAN_URL).toBe(url);
    }
    expect(errorOf([layer('fw.json', { FW_OCEAN_URL: 'ftp://ocean.example.com/index.json' })]).message).toBe(
      'fw.json: FW_OCEAN_URL: got "ftp://ocean.example.com/index.json"; expected an http(s) or file: URL, or a path, of the Ocean index document',
    );
  });

  test('JSON objects for object keys', () => {
    const c = parseConfig([
      layer('env', {
        APP_FRONTEND: '{"type":"vite","framework":"react"}',
        DATABASE_BINDS: '{"main":"file:./m.db"}',
      }),
    ]);
    expect(c.APP_FRONTEND).toEqual({ type: 'vite', framework: 'react', typescript: false, register_index: true });
  });

  test('bad JSON is reported with the text the user wrote', () => {
    const err = errorOf([layer('environment', { APP_FRONTEND: '{type: vite}' })]);
    expect(err.message).toBe('environment: APP_FRONTEND: got "{type: vite}"; expected an object');
  });

  test('strings of string keys are kept exactly (spaces included)', () => {
    expect(parseConfig([layer('ini', { SECRET_KEY: ' a b ' })]).SECRET_KEY).toBe(' a b ');
  });

  test('the frontend block inside the config is validated with its key path', () => {
    const err = errorOf([layer('fw.json', { APP_FRONTEND: { type: 'vite', framework: 'angular' } })]);
    expect(err.message).toBe(
      'fw.json: APP_FRONTEND.framework: got "angular"; expected one of lit, none, preact, qwik, react, solid, svelte, vue',
    );
  });
});

describe('aliases', () => {
  test('the alias table maps the reference names', () => {
    expect(CONFIG_ALIASES).toEqual({
      EXT_BABEL: 'EXT_I18N',
      BABEL_DEFAULT_LOCALE: 'I18N_DEFAULT_LOCALE',
      BABEL_SUPPORTED_LOCALES: 'I18N_SUPPORTED_LOCALES',
      BABEL_DATABASE_BIND: 'I18N_DATABASE_BIND',
      SQLALCHEMY_BINDS: 'DATABASE_BINDS',
    });
  });

  test('reference names are mapped and coerced by the canonical key type', () => {
    const c = parseConfig([
      layer('app_configs/x.ini', {
        EXT_BABEL: '1',
        BABEL_DEFAULT_LOCALE: 'de',
        BABEL_SUPPORTED_LOCALES: 'en,de',
        SQLALCHEMY_BINDS: '{"main":"file:./a.db","i18n":"file:./i18n.db"}',
        BABEL_DATABASE_BIND: 'i18n',
      }),
    ]);
    expect(c).toMatchObject({
      EXT_I18N: true,
      I18N_DEFAULT_LOCALE: 'de',
      I18N_SUPPORTED_LOCALES: ['en', 'de'],
      I18N_DATABASE_BIND: 'i18n',
      DATABASE_BINDS: { main: 'file:./a.db', i18n: 'file:./i18n.db' },
    });
    expect(c).not.toHaveProperty('EXT_BABEL');
    expect(c).not.toHaveProperty('SQLALCHEMY_BINDS');
  });

  test('the canonical key wins over its alias in the same layer, whatever the order', () => {
    expect(parseConfig([layer('env', { EXT_BABEL: '0', EXT_I18N: '1' })]).EXT_I18N).toBe(true);
    expect(parseConfig([layer('env', { EXT_I18N: '1', EXT_BABEL: '0' })]).EXT_I18N).toBe(true);
  });

  test('across layers the later layer wins, alias or not', () => {
    expect(parseConfig([layer('fw.json', { EXT_I18N: true }), layer('env', { EXT_BABEL: 'off' })]).EXT_I18N).toBe(false);
  });

  test('a bad alias value is reported under the canonical key', () => {
    expect(errorOf([layer('env', { EXT_BABEL: 'maybe' })]).message).toBe(
      'env: EXT_I18N: got "maybe"; expected a boolean (true or false)',
    );
  });
});

describe('app-defined keys', () => {
  test('unknown UPPERCASE keys are kept as strings', () => {
    const c = parseConfig([layer('fw.json', { MY_FLAG: true, MY_COUNT: 5, MY_LIST: [1, 2], MY_TEXT: 'x' })]);
    expect(c.MY_FLAG).toBe('true');
    expect(c.MY_COUNT).toBe('5');
    expect(c.MY_LIST).toBe('[1,2]');
    expect(c.MY_TEXT).toBe('x');
  });

  test('lowercase keys are rejected, with a hint for a known key', () => {
    const err = errorOf([layer('fw.json', { debug: true, my_key: 'x' })]);
    expect(err.message).toBe(
      [
        'fw.json: debug: unknown key; did you mean DEBUG? (config keys are UPPERCASE: A-Z, 0-9, _)',
        'fw.json: my_key: unknown key; expected an UPPERCASE key name (A-Z, 0-9, _)',
      ].join('\n'),
    );
  });
});

describe('redaction', () => {
  test.each(['SECRET_KEY', 'MAIL_PASSWORD', 'API_TOKEN', 'STRIPE_KEY', 'MY_SECRET_THING'])('%s never prints its value', (key) => {
    const value = key === 'SECRET_KEY' || key === 'MAIL_PASSWORD' ? 12345 : { nested: 'hunter2' };
    const err = errorOf([layer('fw.json', { [key]: value, debug: 1 })]);
    expect(err.message).not.toContain('12345');
    expect(err.message).not.toContain('hunter2');
    if (key === 'SECRET_KEY' || key === 'MAIL_PASSWORD') {
      expect(err.message).toContain(`fw.json: ${key}: got <redacted>; expected a string`);
    }
  });

  test('an empty SECRET_KEY is reported without its value', () => {
    expect(errorOf([layer('app_configs/x.ini', { SECRET_KEY: '' })]).message).toBe(
      'app_configs/x.ini: SECRET_KEY: got <redacted>; expected a non-empty secret string',
    );
  });

  test('passwords inside URLs are masked', () => {
    const err = errorOf([layer('environment', { CACHE_TYPE: 'redis', CACHE_REDIS_URL: 'http://user:hunter2@127.0.0.1:6379' })]);
    expect(err.message).toBe(
      'environment: CACHE_REDIS_URL: got "http://user:<redacted>@127.0.0.1:6379"; expected a redis URL such as "redis://127.0.0.1:6379/0"',
    );
  });
});

describe('key rules', () => {
  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['BASE_URL not http(s)', { BASE_URL: 'ftp://x' }, 'e: BASE_URL: got "ftp://x"; expected an http(s) URL for BASE_URL, e.g. "https://example.com"'],
    ['BASE_URL not a URL', { BASE_URL: 'example.com' }, 'e: BASE_URL: got "example.com"; expected an http(s) URL for BASE_URL, e.g. "https://example.com"'],
    ['PORT out of range', { PORT: '70000' }, 'e: PORT: got 70000; expected a port number 0-65535'],
    ['PORT negative', { PORT: -1 }, 'e: PORT: got -1; expected a port number 0-65535'],
    ['PORT fractional', { PORT: 80.5 }, 'e: PORT: got 80.5; expected an integer port number 0-65535'],
    ['queue size zero', { EVENTS_EVENT_QUEUE_SIZE: '0' }, 'e: EVENTS_EVENT_QUEUE_SIZE: got 0; expected a positive integer'],
    ['queue size text', { EVENTS_EVENT_QUEUE_SIZE: 'big' }, 'e: EVENTS_EVENT_QUEUE_SIZE: got "big"; expected a positive integer'],
    ['CACHE_TYPE', { CACHE_TYPE: 'memcached' }, 'e: CACHE_TYPE: got "memcached"; expected one of memory, file, redis'],
    ['CACHE_TYPE mistyped', { CACHE_TYPE: 'reddis' }, 'e: CACHE_TYPE: got "reddis"; expected one of memory, file, redis (did you mean redis?)'],
    ['rate limit unit', { RATELIMIT_DEFAULT: '5 per fortnight' }, 'e: RATELIMIT_DEFAULT: got "5 per fortnight"; expected a rate limit like "100/minute", "100 per minute" or "20 per 5 minutes", several separated by ";" (at least 1; unit second, minute, hour or day)'],
    ['rate limit zero', { RATELIMIT_DEFAULT: '0/minute' }, 'e: RATELIMIT_DEFAULT: got "0/minute"; expected a rate limit like "100/minute", "100 per minute" or "20 per 5 minutes", several separated by ";" (at least 1; unit second, minute, hour or day)'],
    ['IPv6 prefix zero', { RATELIMIT_IPV6_PREFIX: '0' }, 'e: RATELIMIT_IPV6_PREFIX: got 0; expected a prefix length, a whole number 1-128'],
    ['IPv6 prefix too long', { RATELIMIT_IPV6_PREFIX: 129 }, 'e: RATELIMIT_IPV6_PREFIX: got 129; expected a prefix length, a whole number 1-128'],
    ['trusted host', { PROXY_TRUSTED_HOSTS: '10.0.0.0/33,proxy.local' }, [
      'e: PROXY_TRUSTED_HOSTS[0]: got "10.0.0.0/33"; expected an IP address, a CIDR range such as "10.0.0.0/8", or one of loopback, linklocal, uniquelocal',
      'e: PROXY_TRUSTED_HOSTS[1]: got "proxy.local"; expected an IP address, a CIDR range such as "10.0.0.0/8", or one of loopback, linklocal, uniquelocal',
    ].join('\n')],
    ['locale', { I18N_SUPPORTED_LOCALES: 'en,english!' }, 'e: I18N_SUPPORTED_LOCALES[1]: got "english!"; expected a locale identifier such as "en", "en_US" or "pt-BR"'],
    ['no locales', { I18N_SUPPORTED_LOCALES: '[]' }, 'e: I18N_SUPPORTED_LOCALES: got []; expected a list of at least one locale'],
    ['bind name', { DATABASE_BINDS: { 'bad name': 'file:x' } }, 'e: DATABASE_BINDS.bad name: got the key "bad name"; expected a bind name matching ^[A-Za-z_][A-Za-z0-9_-]*$'],
    ['bind URL', { DATABASE_BINDS: { main: 'no-scheme' } }, 'e: DATABASE_BINDS.main: got "no-scheme"; expected a database URL such as "file:./var/main.db" or "postgres://host/db"'],
    ['duplicate role', { AUTH_ROLES: 'admin,admin' }, 'e: AUTH_ROLES: got ["admin","admin"]; expected a list of distinct role names'],
    ['role name', { AUTH_ROLES: ['1admin'] }, 'e: AUTH_ROLES[0]: got "1admin"; expected a role name matching ^[A-Za-z][A-Za-z0-9_.:-]*$'],
  ];
  test.each(bad)('%s', (_name, values, message) => {
    expect(errorOf([layer('e', values)]).message).toBe(message);
  });

  test('rules between keys, checked once every key is valid', () => {
    const err = errorOf([
      layer('fw.json', { MAIL_USE_TLS: true, SECURITY_MODELS_DB_BIND: 'users', I18N_DATABASE_BIND: 'i18n', I18N_DEFAULT_LOCALE: 'de' }),
      layer('environment', { CACHE_TYPE: 'redis' }),
    ]);
    expect(err.message).toBe(
      [
        'fw.json: MAIL_USE_TLS: got true; expected false while MAIL_USE_STARTTLS is true (use one: MAIL_USE_TLS=true with MAIL_USE_STARTTLS=false and MAIL_PORT=465, or STARTTLS alone on 587)',
        'fw.json: SECURITY_MODELS_DB_BIND: got "users"; expected a name from DATABASE_BINDS: main',
        'fw.json: I18N_DATABASE_BIND: got "i18n"; expected a name from DATABASE_BINDS: main',
        'fw.json: I18N_DEFAULT_LOCALE: got "de"; expected one of I18N_SUPPORTED_LOCALES: en',
        'defaults: CACHE_REDIS_URL: got nothing; expected a redis URL such as "redis://127.0.0.1:6379/0" (required when CACHE_TYPE is redis)',
      ].join('\n'),
    );
  });

  test('implicit TLS works when STARTTLS is turned off', () => {
    const c = parseConfig([layer('ini', { MAIL_USE_TLS: 'true', MAIL_USE_STARTTLS: 'false', MAIL_PORT: '465' })]);
    expect(c).toMatchObject({ MAIL_USE_TLS: true, MAIL_USE_STARTTLS: false, MAIL_PORT: 465 });
  });

  test('redis with a URL is accepted', () => {
    expect(parseConfig([layer('env', { CACHE_TYPE: 'redis', CACHE_REDIS_URL: 'redis://127.0.0.1:6390/1' })]).CACHE_REDIS_URL).toBe(
      'redis://127.0.0.1:6390/1',
    );
  });

  test('every problem of every layer is listed', () => {
    const err = errorOf([layer('a', { DEBUG: 'x', PORT: 'y' }), layer('b', { CACHE_TYPE: 'z' })]);
    expect(err.problems).toHaveLength(3);
    expect(err.name).toBe('ConfigValidationError');
  });
});

describe('rate limit format', () => {
  test.each([
    ['100/minute', 100, 60],
    ['100 per minute', 100, 60],
    ['5/second', 5, 1],
    ['10 per hour', 10, 3600],
    ['1/day', 1, 86400],
    ['2 per Minutes', 2, 60],
    [' 3 / hour ', 3, 3600],
    ['20 per 5 minutes', 20, 300],
  ])('%j', (text, points, seconds) => {
    expect(parseRateLimit(text)).toMatchObject({ points, seconds });
    expect(parseConfig([layer('e', { RATELIMIT_DEFAULT: text })]).RATELIMIT_DEFAULT).toBe(text);
  });

  test.each(['100', '/minute', '100/week', '100 minute', 'ten/minute', '0/second', '-1/second', '100/minute;5/second'])('rejects %j', (text) => {
    expect(parseRateLimit(text)).toBeUndefined();
  });

  test('a list of limits is one RATELIMIT_DEFAULT, and the malformed part is named', () => {
    expect(parseRateLimits('10/minute;100/hour')).toEqual([
      { points: 10, seconds: 60, text: '10/1 minute' },
      { points: 100, seconds: 3600, text: '100/1 hour' },
    ]);
    expect(parseConfig([layer('e', { RATELIMIT_DEFAULT: '10/minute, 100 per hour' })]).RATELIMIT_DEFAULT).toBe('10/minute, 100 per hour');
    expect(parseRateLimits('10/minute;ten/hour')).toEqual({ invalid: 'ten/hour' });
    expect(() => parseConfig([layer('e', { RATELIMIT_DEFAULT: '10/minute;ten/hour' })])).toThrow(/RATELIMIT_DEFAULT/);
  });
});

describe('app_configs/<app>.ini', () => {
  test('APP_INI_KEYS lists every known key and alias', () => {
    expect(APP_INI_KEYS).toEqual([...CONFIG_KEYS, ...Object.keys(CONFIG_ALIASES)]);
    expect(APP_INI_KEYS).toContain('SECRET_KEY');
    expect(APP_INI_KEYS).toContain('EXT_BABEL');
  });

  test('parseAppIni coerces, maps aliases and applies no defaults', () => {
    expect(parseAppIni({ SECRET_KEY: 'abc', DEBUG: 'yes', EXT_BABEL: 'on', MY_KEY_ID: '7' }, 'app_configs/x.ini')).toEqual({
      SECRET_KEY: 'abc',
      DEBUG: true,
      EXT_I18N: true,
      MY_KEY_ID: '7',
    });
  });

  test('parseAppIni names the file', () => {
    expect(() => parseAppIni({ DEBUG: 'perhaps' }, 'app_configs/x.ini')).toThrow(
      'app_configs/x.ini: DEBUG: got "perhaps"; expected a boolean (true or false)',
    );
    expect(() => parseAppIni([], 'app_configs/x.ini')).toThrow('app_configs/x.ini: (top level): got []; expected an object of config keys');
  });
});
