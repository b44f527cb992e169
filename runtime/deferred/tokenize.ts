/**
 * The tokenizer of the `discover` index (docs/catalog.md#the-search-index): lower-cased word
 * tokens, camelCase and snake/kebab/`__` names split, a light English stem, and CJK runs as
 * single characters plus bigrams (CJK text has no spaces). The compiler tokenizes the shipped
 * index with this very function, so both sides agree on every token.
 */

export const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;
const WORD = /[\p{L}\p{N}]+/gu;

/** Light English normalisation so `tools` finds `tool` and `weathers` finds `weather`. */
function stem(word: string): string {
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

// Printable ASCII and the usual whitespace: the text a fast scan tokenizes exactly as the regexes do.
const PLAIN = /^[\t\n\r\x20-\x7e]*$/;

/**
 * `tokenize` for ASCII text, without regexes: a word is a run of letters and digits, split
 * before an upper-case letter that follows a lower-case letter or a digit (what inserting a
 * space there and matching `[\p{L}\p{N}]+` gives on ASCII), lower-cased and stemmed.
 */
function tokenizePlain(text: string, out: string[]): string[] {
  let start = -1;
  for (let i = 0; i <= text.length; i += 1) {
    const code = i < text.length ? text.charCodeAt(i) : 32;
    const upper = code >= 65 && code <= 90;
    const lower = (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
    if (upper || lower) {
      if (start < 0) start = i;
      else if (upper) {
        const previous = text.charCodeAt(i - 1);
        if ((previous >= 97 && previous <= 122) || (previous >= 48 && previous <= 57)) {
          out.push(stem(text.slice(start, i).toLowerCase()));
          start = i;
        }
      }
    } else if (start >= 0) {
      out.push(stem(text.slice(start, i).toLowerCase()));
      start = -1;
    }
  }
  return out;
}

/** Lower-cased word tokens; camelCase and snake/kebab/`__` names split; CJK as chars + bigrams. */
export function tokenize(text: string): string[] {
  if (PLAIN.test(text)) return tokenizePlain(text, []);
  const out: string[] = [];
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  for (const match of spaced.matchAll(WORD)) {
    const word = match[0].toLowerCase();
    if (!CJK.test(word)) {
      out.push(stem(word));
      continue;
    }
    // Mixed runs: split into CJK and non-CJK stretches.
    let latin = '';
    let cjk: string[] = [];
    const flush = () => {
      if (latin) out.push(stem(latin));
      latin = '';
      for (let i = 0; i < cjk.length; i += 1) {
        out.push(cjk[i]!);
        if (i + 1 < cjk.length) out.push(cjk[i]! + cjk[i + 1]!);
      }
      cjk = [];
    };
    for (const char of word) {
      if (CJK.test(char)) {
        if (latin) {
          out.push(stem(latin));
          latin = '';
        }
        cjk.push(char);
      } else {
        if (cjk.length) flush();
        latin += char;
      }
    }
    flush();
  }
  return out;
}
