/// <reference types="node" />
/**
 * The web app's files compressed once, at build time (a Vite plugin calls
 * this on dist/web): each compressible file gets a Brotli (`.br`) and a gzip
 * (`.gz`) sibling, which `cussec serve` sends to a browser that accepts them.
 * Compressing at build costs the server no CPU per request, and lets Brotli
 * use its best (slowest) level.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.map']);
/** Below this a response fits in one packet anyway. */
const SIZE_MIN_BYTES = 1_024;

/** Writes the `.br` and `.gz` of every compressible file under `folder`; returns how many files. */
export function precompressDir(folder: string | URL): number {
  const dir = folder instanceof URL ? fileURLToPath(folder) : folder;
  let files = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) {
      files += precompressDir(path);
      continue;
    }
    if (!COMPRESSIBLE.has(extname(name)) || stat.size < SIZE_MIN_BYTES) continue;
    const data = readFileSync(path);
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      }),
    );
    writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
    files++;
  }
  return files;
}
