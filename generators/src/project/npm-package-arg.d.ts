/** The part of npm-package-arg (npm's own spec parser, which ships no types) that fw uses. */
declare module 'npm-package-arg' {
  /** A parsed `<name>@<spec>`: `type` is how npm reads the spec. */
  export interface Result {
    type: 'git' | 'tag' | 'version' | 'range' | 'file' | 'directory' | 'remote' | 'alias';
    name: string | null;
    rawSpec: string;
    fetchSpec: string | null;
  }
  /** An error npm-package-arg throws for a spec npm refuses (`code` such as `EINVALIDTAGNAME`). */
  export interface SpecError extends Error {
    code?: string;
  }
  interface Npa {
    /** Parses `spec` as the version part of package `name`, as `npm install name@spec` does; throws when npm refuses it. */
    resolve(name: string, spec: string, where?: string): Result;
  }
  const npa: Npa;
  export default npa;
}
