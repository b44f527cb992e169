/**
 * The seal every module of the generated folder ends with (write/validators.ts): a digest of the
 * bytes above it, so an edit in place is seen by `generate` (which rewrites the module) and by
 * `check` (which reports it).
 */
import { createHash } from 'node:crypto';

/** The last line of every module of the folder: a digest of the bytes before it. */
const SEAL = '// sealed ';

/** The text with its seal line appended. */
export function sealed(text: string): string {
  return `${text}${SEAL}${createHash('sha256').update(text).digest('hex').slice(0, 32)}\n`;
}

/** Why a module's bytes are not what zhin-gen wrote (undefined: the seal holds). */
export function sealProblem(bytes: Buffer): string | undefined {
  if (bytes.length === 0 || bytes[bytes.length - 1] !== 0x0a) return 'its last line is not the seal zhin-gen writes';
  const start = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
  const line = bytes.toString('utf8', start, bytes.length - 1);
  if (!line.startsWith(SEAL)) return 'its last line is not the seal zhin-gen writes';
  const digest = createHash('sha256').update(bytes.subarray(0, start)).digest('hex').slice(0, 32);
  return digest === line.slice(SEAL.length) ? undefined : 'it was edited after zhin-gen wrote it';
}
