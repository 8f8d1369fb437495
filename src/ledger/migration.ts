/** A numbered schema change for one engine; applied once, in order, and never edited after release. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}
