/**
 * What a turn records about the stores it depends on: a session snapshot that could not be read
 * (the turn started empty), a stored value ignored as corrupt, an approval memory that could not
 * answer (the call counted as not approved); and what its catalog left out of a provider request
 * over that provider's tool limit (`catalog`). They explain an outcome; they never decide one.
 */

export type TurnDiagnosticSource = 'sessions' | 'approvals' | 'catalog';

export interface TurnDiagnostic {
  readonly source: TurnDiagnosticSource;
  readonly message: string;
  /** Wall-clock time it was recorded (ms since epoch). */
  readonly at: number;
}

/** A turn's diagnostics: appended by the turn, read through a frozen copy. */
export class TurnDiagnostics {
  readonly #items: TurnDiagnostic[] = [];

  add(source: TurnDiagnosticSource, message: string): void {
    this.#items.push(Object.freeze({ source, message, at: Date.now() }));
  }

  get items(): readonly TurnDiagnostic[] {
    return Object.freeze([...this.#items]);
  }
}
