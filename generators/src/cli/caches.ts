import { Cache } from '../pipeline/cache.js';
import { formatConfig, type Formatter } from '../pipeline/format.js';
import { prettierFormatter } from '../pipeline/prettier.js';
import { useTemplateStore } from '../render/handlebars.js';

/**
 * The formatter and the caches of an `fw` command in an existing project: prettier with the
 * project's config (found once, see `formatConfig`), behind `.fw/cache/` (off when the
 * environment sets `FW_CACHE=off`), which also keeps the precompiled blueprint templates.
 */
export function projectCaches(projectRoot: string, version: string, env: NodeJS.ProcessEnv): { formatter: Formatter; cache: Cache } {
  const config = formatConfig(projectRoot, version);
  const cache = Cache.load(projectRoot, config, env.FW_CACHE !== 'off');
  useTemplateStore(cache.templates());
  return { formatter: prettierFormatter(projectRoot, config.file), cache };
}
