/**
 * Small tmpfs mounts for the suites that need a disk that fills or a folder
 * that is read-only. Root only: `cannotMount()` says why not elsewhere, and
 * those suites are skipped with the reason.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why a tmpfs cannot be mounted here (not root, no mount), or undefined when it can. */
export function cannotMount(): string | undefined {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const probe = mkdtempSync(join(tmpdir(), 'cussec-mount-probe-'));
  try {
    mountTmpfs(probe, '64k');
    unmount(probe);
    return undefined;
  } catch (error) {
    return `mount -t tmpfs failed: ${(error as Error).message}`;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/** Mounts a tmpfs of `size` (e.g. "256k") on the folder `at`; `readOnly` mounts it read-only. */
export function mountTmpfs(at: string, size: string, readOnly = false): void {
  const options = `size=${size}${readOnly ? ',ro' : ''}`;
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', at], { stdio: 'pipe' });
}

/** Makes a mounted tmpfs read-only, keeping what it holds. */
export function remountReadOnly(at: string): void {
  execFileSync('mount', ['-o', 'remount,ro', at], { stdio: 'pipe' });
}

/** Unmounts lazily: a process the test could not stop must not leave the mount behind. */
export function unmount(at: string): void {
  execFileSync('umount', ['-l', at], { stdio: 'pipe' });
}
