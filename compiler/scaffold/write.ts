/**
 * Writes a scaffold plan without ever replacing anything: each file is created with the `wx`
 * flag (exclusive create), so a file that exists — or appears between a check and the write — is
 * left byte-identical and reported as skipped. No check-then-write race, no partial overwrite.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ScaffoldPlan, ScaffoldReport } from './types.js';

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function writeScaffold(root: string, plan: ScaffoldPlan): ScaffoldReport {
  const written: string[] = [];
  const skipped: string[] = [];
  const failed: { path: string; reason: string }[] = [];
  for (const file of plan) {
    const target = join(root, file.path);
    try {
      mkdirSync(dirname(target), { recursive: true });
    } catch (error) {
      // EEXIST here means a parent is a file (mkdir -p accepts existing directories).
      const code = errorCode(error);
      failed.push({
        path: file.path,
        reason: code === 'EEXIST' || code === 'ENOTDIR' ? 'a parent path is a file' : reason(error),
      });
      continue;
    }
    try {
      writeFileSync(target, file.content, { flag: 'wx' });
      written.push(file.path);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'EEXIST') skipped.push(file.path);
      else failed.push({ path: file.path, reason: code === 'ENOTDIR' ? 'a parent path is a file' : reason(error) });
    }
  }
  return { written, skipped, failed };
}
