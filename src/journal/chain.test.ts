import { describe, expect, it } from 'vitest';
import { withStores } from '../ledger/testing.js';
import type { Store } from '../ledger/index.js';
import { JournalEntryInvalid } from './entries.js';
import { entryHash, GENESIS_HASH } from './entry.js';
import { depositInput, sampleInput } from './samples.js';
import { verifyChain } from './verify.js';

async function appendTen(store: Store): Promise<void> {
  for (let batch = 0; batch < 5; batch++) {
    await store.transaction(
      (tx) =>
        tx.appendJournal([
          depositInput('T1', batch),
          depositInput(batch % 2 === 0 ? 'T2' : null, 100 + batch),
        ]),
      { nowMs: 1_000 + batch },
    );
  }
}

/** Drops the guard triggers, as someone with DDL rights could, so the tests can tamper. */
async function dropGuards(
  h: { engine: string; raw(db: string, sql: string): Promise<unknown[]> },
  db: string,
): Promise<void> {
  if (h.engine === 'sqlite') {
    for (const t of ['journal_refuse_update', 'journal_refuse_delete', 'journal_head_forward_only'])
      await h.raw(db, `DROP TRIGGER ${t}`);
  } else {
    await h.raw(db, 'DROP TRIGGER journal_refuse_change ON journal');
    await h.raw(db, 'DROP TRIGGER journal_head_forward_only ON journal_head');
    await h.raw(db, 'DROP TRIGGER journal_head_on_entry ON journal_head');
  }
}

withStores('journal chain', (h) => {
  it('chains entries from seq 1 across transactions and verifies', async () => {
    const store = await h.open();
    await appendTen(store);
    const entries = await store.readJournal({ fromSeq: 1, limit: 100 });
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(entries[0]!.prevHash).toBe(GENESIS_HASH);
    for (let i = 1; i < entries.length; i++)
      expect(entries[i]!.prevHash).toBe(entries[i - 1]!.hash);
    for (const e of entries) expect(entryHash(e)).toBe(e.hash);
    expect(entries[2]).toMatchObject({
      tableId: 'T1',
      type: 'deposit',
      payload: { playerId: 'p1', amountMinor: 1, cashierId: 'k1', transferId: 'deposit:1' },
      atMs: 1_001,
    });
    expect(await verifyChain(store)).toEqual({ ok: true, lastSeq: 10, lastHash: entries[9]!.hash });
    expect(
      (await store.readJournal({ fromSeq: 1, limit: 100, tableId: 'T2' })).map((e) => e.seq),
    ).toEqual([2, 6, 10]);
  });

  it('verifies an empty journal', async () => {
    const store = await h.open();
    expect(await verifyChain(store)).toEqual({ ok: true, lastSeq: 0, lastHash: GENESIS_HASH });
  });

  it('returns the appended entries with their seqs and hashes', async () => {
    const store = await h.open();
    const appended = await store.transaction((tx) =>
      tx.appendJournal([sampleInput('T1', 'round-settled')]),
    );
    expect(appended).toEqual(await store.readJournal({ fromSeq: 1, limit: 1 }));
  });

  it('refuses to move the head backwards or onto a made-up entry', async () => {
    const db = h.freshDb();
    const store = await h.open({ db });
    await appendTen(store);
    await expect(
      h.raw(db, "UPDATE journal_head SET last_seq = 9 WHERE chain = 'global'"),
    ).rejects.toThrow(/cussec: /);
    await expect(
      h.raw(db, "UPDATE journal_head SET last_seq = 11, last_hash = 'x' WHERE chain = 'global'"),
    ).rejects.toThrow(/cussec: /);
  });

  // PostgreSQL writes the entries and moves the head in one statement (migration 11):
  // that the head lands on an entry is checked at commit, and still refused otherwise.
  describe.skipIf(h.engine !== 'postgres')('the head checked at commit', () => {
    const hash = (byte: string) => byte.repeat(32);
    const entry = (seq: number, byte: string) =>
      `INSERT INTO journal (seq, table_id, type, payload_json, at_ms, hash)
      VALUES (${seq}, NULL, 'deposit', '{}', 1, decode('${hash(byte)}', 'hex'))`;
    const moveHead = (seq: number, byte: string) =>
      `UPDATE journal_head SET last_seq = ${seq}, last_hash = '${hash(byte)}' WHERE chain = 'global'`;
    const head = async (db: string) =>
      h.raw(db, `SELECT last_seq::int AS seq, last_hash AS hash FROM journal_head`);

    it('moves the head in the statement that inserts its entry', async () => {
      const db = h.freshDb();
      await h.open({ db });
      await h.raw(db, `WITH j AS (${entry(1, 'ab')}) ${moveHead(1, 'ab')}`);
      expect(await head(db)).toEqual([{ seq: 1, hash: hash('ab') }]);
    });

    it('refuses, at commit, a head moved onto a made-up entry, even beside the insert of another', async () => {
      const db = h.freshDb();
      await h.open({ db });
      await expect(h.raw(db, `WITH j AS (${entry(1, 'ab')}) ${moveHead(1, 'cd')}`)).rejects.toThrow(
        /cussec: the journal head only moves forward to an existing entry/,
      );
      await expect(h.raw(db, `BEGIN; ${moveHead(1, 'ab')}; COMMIT`)).rejects.toThrow(/cussec: /);
      // An entry inserted later in the transaction is there at commit.
      await h.raw(db, `BEGIN; ${moveHead(1, 'ab')}; ${entry(1, 'ab')}; COMMIT`);
      expect(await head(db)).toEqual([{ seq: 1, hash: hash('ab') }]);
      expect(await h.raw(db, 'SELECT count(*)::int AS n FROM journal')).toEqual([{ n: 1 }]);
      // Backwards is refused at once, as before.
      await expect(h.raw(db, moveHead(1, 'ab'))).rejects.toThrow(/cussec: /);
    });
  });

  it('keeps each hash as its 32 bytes, and refuses a checkpoint the next entry does not follow', async () => {
    const db = h.freshDb();
    const store = await h.open({ db });
    await appendTen(store);
    expect(await h.raw(db, 'SELECT DISTINCT length(hash) AS n FROM journal')).toEqual([{ n: 32 }]);
    expect(await verifyChain(store, { seq: 5, hash: 'f'.repeat(64) })).toEqual({
      ok: false,
      seq: 6,
      failure: 'prev_hash_mismatch',
    });
  });

  describe('tampering', () => {
    const cases: { name: string; sql: string; seq: number; failure: string }[] = [
      {
        name: 'an edited payload',
        sql: `UPDATE journal SET payload_json = replace(payload_json, '"amountMinor":1,', '"amountMinor":7,') WHERE seq = 3`,
        seq: 3,
        failure: 'hash_mismatch',
      },
      {
        name: 'a payload edited into one no entry type has',
        sql: `UPDATE journal SET payload_json = '{"x":1}' WHERE seq = 5`,
        seq: 5,
        failure: 'hash_mismatch',
      },
      {
        name: 'an edited time',
        sql: 'UPDATE journal SET at_ms = 7 WHERE seq = 6',
        seq: 6,
        failure: 'hash_mismatch',
      },
      {
        name: 'an entry rehashed after an edit',
        sql: `UPDATE journal SET type = 'forged', hash = (SELECT hash FROM journal WHERE seq = 1) WHERE seq = 4`,
        seq: 4,
        failure: 'hash_mismatch',
      },
      {
        name: 'a deleted entry',
        sql: 'DELETE FROM journal WHERE seq = 5',
        seq: 5,
        failure: 'seq_gap',
      },
      {
        name: 'entries cut from the end',
        sql: 'DELETE FROM journal WHERE seq >= 9',
        seq: 9,
        failure: 'head_mismatch',
      },
      {
        // The next entry's hash was made over this one's: it no longer follows.
        name: "another entry's hash stored in place of one",
        sql: 'UPDATE journal SET hash = (SELECT hash FROM journal WHERE seq = 2) WHERE seq = 7',
        seq: 7,
        failure: 'hash_mismatch',
      },
    ];
    for (const c of cases) {
      it(`finds ${c.name} at seq ${c.seq}`, async () => {
        const db = h.freshDb();
        const store = await h.open({ db });
        await appendTen(store);
        await expect(h.raw(db, c.sql)).rejects.toThrow(/cussec: /);
        await dropGuards(h, db);
        await h.raw(db, c.sql);
        expect(await verifyChain(store)).toEqual({ ok: false, seq: c.seq, failure: c.failure });
      });
    }

    it('reads an entry that no longer parses as an error naming its seq', async () => {
      const db = h.freshDb();
      const store = await h.open({ db });
      await appendTen(store);
      await dropGuards(h, db);
      await h.raw(db, `UPDATE journal SET payload_json = '{"x":1}' WHERE seq = 5`);
      const read = store.readJournal({ fromSeq: 1, limit: 100 });
      await expect(read).rejects.toThrow(JournalEntryInvalid);
      await expect(read).rejects.toThrow(
        'journal entry 5 ("deposit") does not parse: payload.playerId: Invalid input: expected string, received undefined',
      );
      await expect(read).rejects.toMatchObject({ seq: 5, type: 'deposit' });
      // Entries before it still read.
      expect(await store.readJournal({ fromSeq: 1, limit: 4 })).toHaveLength(4);
    });
  });
});
