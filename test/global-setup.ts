/**
 * Finds the PostgreSQL the PostgreSQL suites use. CUSSEC_TEST_PG_URL wins; when
 * it is unset we try the usual loopback server, and when nothing answers the
 * suites are skipped and we say so once, here, with the reason.
 */
import pg from 'pg';

const FALLBACK_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export default async function setup(): Promise<void> {
  if (process.env['CUSSEC_TEST_PG_URL']) return;
  const client = new pg.Client({ connectionString: FALLBACK_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    process.env['CUSSEC_TEST_PG_URL'] = FALLBACK_URL;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `\nSKIPPED: the PostgreSQL suites (ledger, journal and service on PostgreSQL) — ` +
        `CUSSEC_TEST_PG_URL is unset and no PostgreSQL answered at ${FALLBACK_URL} (${reason}).\n\n`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}
