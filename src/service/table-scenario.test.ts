import { expect, it } from 'vitest';
import { withStores } from '../ledger/testing.js';
import { playScenario } from './table-scenario.js';

/**
 * The digest of table-scenario.ts as the service wrote it before issue 15 split
 * it by job and moved the liability cap and the between-rounds rule into the
 * round machine (commit 3da68dd): the journal and the answers are unchanged.
 */
const BEFORE_ISSUE_15 = 'c6b0e5d2f7303558e0beab15b1ab530716a6e6f144486e41f8b1f81f2af0fc6a';

withStores('a seeded table', (h) => {
  it('journals and answers exactly what the service did before its redesign', async () => {
    expect(await playScenario(await h.open())).toBe(BEFORE_ISSUE_15);
  });
});
