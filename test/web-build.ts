/** Builds the web app for the browser suites when dist/web is missing or older than its sources. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** The built app is older than its sources (or missing): build it, as `npm run build` does. */
export function buildWebIfStale(): void {
  const built = join(ROOT, 'dist', 'web', 'index.html');
  const newest = (dir: string): number =>
    Math.max(
      0,
      ...readdirSync(dir, { withFileTypes: true }).map((d) =>
        d.isDirectory() ? newest(join(dir, d.name)) : statSync(join(dir, d.name)).mtimeMs,
      ),
    );
  const sources = Math.max(
    newest(join(ROOT, 'web')),
    newest(join(ROOT, 'src', 'rules')),
    newest(join(ROOT, 'src', 'math')),
    // The cage and the registers bundle the law of who may play (src/compliance/people).
    newest(join(ROOT, 'src', 'compliance')),
    // The inspector's page bundles the export's verifier.
    newest(join(ROOT, 'verifier')),
  );
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  execFileSync(join(ROOT, 'node_modules', '.bin', 'vite'), ['build', 'web', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}
