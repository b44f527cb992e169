/**
 * Sizes and token estimates of what a provider request carries. No tokenizer ships with zhin-gen
 * (each provider's is different, and most are not published as code), so the estimate is a rule
 * of thumb stated once here and in docs/report.md: ASCII text costs about one token per four
 * bytes (JSON punctuation and English words alike), any other code point about one token each
 * (CJK). It is meant for comparing tools and configurations, not for billing.
 */
import { MODEL_PROVIDERS, type ModelProvider } from '@zhin-gen/runtime';

export const PROVIDERS: readonly ModelProvider[] = MODEL_PROVIDERS;

export interface Size {
  /** UTF-8 bytes of the JSON text. */
  readonly bytes: number;
  /** Estimated tokens (see the module comment). */
  readonly tokens: number;
}

export type ProviderSizes = Readonly<Record<ModelProvider, Size>>;

const encoder = new TextEncoder();

export function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}

export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const char of text) {
    if (char.charCodeAt(0) < 0x80) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 4) + other;
}

/** The size of a value as it is sent: its JSON text. */
export function sizeOf(value: unknown): Size {
  const text = JSON.stringify(value) ?? '';
  return { bytes: utf8Bytes(text), tokens: estimateTokens(text) };
}

export function addSizes(sizes: readonly Size[]): Size {
  let bytes = 0;
  let tokens = 0;
  for (const size of sizes) {
    bytes += size.bytes;
    tokens += size.tokens;
  }
  return { bytes, tokens };
}
