import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The balancer's config as docs/deploy.md installs it; the cluster suite and the bench run it. */
export const HAPROXY_CFG = fileURLToPath(new URL('../../../../deploy/haproxy.cfg', import.meta.url));

/** Debian installs HAProxy and PgBouncer in /usr/sbin, which a user's PATH may lack. */
export const sbin = (name: string) => (existsSync(`/usr/sbin/${name}`) ? `/usr/sbin/${name}` : name);

/**
 * deploy/haproxy.cfg listening on 127.0.0.1:`listen` with the API processes on `backends` (in the
 * order of its `server` lines; the lines past the last backend are left out), without the lines
 * that need root (user, chroot, TLS).
 */
export function haproxyConfig(template: string, listen: number, backends: number[]): string {
  let next = 0;
  return template
    .split('\n')
    .filter((line) => !line.includes('# root only'))
    .map((line) => line.replace(/^(\s*)bind :80$/, `$1bind 127.0.0.1:${listen}`))
    .flatMap((line) => {
      if (!/^\s*server \S+ 127\.0\.0\.1:\d+/.test(line)) return [line];
      const port = backends[next++];
      return port === undefined
        ? []
        : [line.replace(/^(\s*server \S+ )127\.0\.0\.1:\d+/, (_, head: string) => `${head}127.0.0.1:${port}`)];
    })
    .join('\n');
}

/** Writes deploy/haproxy.cfg so filled in into `dir`; answers the file to start `haproxy -db -f` with. */
export function writeHaproxyConfig(dir: string, listen: number, backends: number[], name = 'haproxy.cfg'): string {
  const file = join(dir, name);
  writeFileSync(file, haproxyConfig(readFileSync(HAPROXY_CFG, 'utf8'), listen, backends));
  return file;
}
