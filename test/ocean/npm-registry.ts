import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serve, type TestServer } from './http.ts';

const run = promisify(execFile);

/** A tiny package to publish into the test registry. */
export interface PackageSpec {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  /** Contents of index.js (an ES module). */
  source: string;
  /** More package.json fields (e.g. peerDependencies), also served in the packument. */
  extra?: Record<string, unknown>;
}

interface Published {
  spec: PackageSpec;
  tarball: Buffer;
  file: string;
}

/**
 * A minimal npm registry on 127.0.0.1: packuments at `/<name>` (scoped: `/@scope%2fname`) with
 * `versions`, `dist-tags` and `dist.tarball`/`dist.integrity`, and the `npm pack` tarballs at
 * `/tarballs/<file>`. Everything else is a 404, as a real registry answers for unknown names.
 */
export class TestNpmRegistry {
  readonly #packages = new Map<string, Published[]>();
  readonly #latest = new Map<string, string>();
  /** Every request path, in order (to prove what npm fetched). */
  readonly requests: string[] = [];
  server!: TestServer;

  constructor(private readonly workDir: string) {}

  /** Starts the HTTP server. */
  async start(): Promise<this> {
    this.server = await serve((req, res) => this.#handle(req, res));
    return this;
  }

  /** The registry URL to pass to npm (`--registry`), with a trailing slash. */
  get url(): string {
    return `${this.server.base}/`;
  }

  /** Writes the package (package.json + index.js), `npm pack`s it and publishes the tarball. */
  async publish(spec: PackageSpec): Promise<void> {
    const dir = join(this.workDir, 'src', `${spec.name.replace('/', '__')}-${spec.version}`);
    await mkdir(dir, { recursive: true });
    const manifest = {
      name: spec.name,
      version: spec.version,
      type: 'module',
      main: 'index.js',
      exports: { '.': './index.js' },
      dependencies: spec.dependencies ?? {},
      ...spec.extra,
    };
    await writeFile(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
    await writeFile(join(dir, 'index.js'), spec.source);
    const out = join(this.workDir, 'tarballs');
    await mkdir(out, { recursive: true });
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', out], { cwd: dir });
    const file = (JSON.parse(stdout) as Array<{ filename: string }>)[0]?.filename;
    if (file === undefined) throw new Error(`npm pack gave no file for ${spec.name}`);
    const tarball = await readFile(join(out, file));
    const list = this.#packages.get(spec.name) ?? [];
    list.push({ spec, tarball, file });
    this.#packages.set(spec.name, list);
  }

  /** Sets the `latest` dist-tag of a package (default: the last published version). */
  tag(name: string, version: string): void {
    this.#latest.set(name, version);
  }

  async close(): Promise<void> {
    await this.server.close();
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
    this.requests.push(path);
    const tar = /^\/tarballs\/(.+)$/.exec(path);
    if (tar !== null) {
      const found = [...this.#packages.values()].flat().find((p) => p.file === tar[1]);
      if (found === undefined) return notFound(res);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': found.tarball.length });
      res.end(found.tarball);
      return;
    }
    const name = path.slice(1);
    const list = this.#packages.get(name);
    if (list === undefined) return notFound(res);
    const versions = Object.fromEntries(
      list.map(({ spec, tarball, file }) => [
        spec.version,
        {
          name: spec.name,
          version: spec.version,
          dependencies: spec.dependencies ?? {},
          ...spec.extra,
          dist: {
            tarball: `${this.server.base}/tarballs/${file}`,
            integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
            shasum: createHash('sha1').update(tarball).digest('hex'),
          },
        },
      ]),
    );
    const latest = this.#latest.get(name) ?? list[list.length - 1]?.spec.version ?? '';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ name, 'dist-tags': { latest }, versions }));
  }
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: 'Not found' }));
}
