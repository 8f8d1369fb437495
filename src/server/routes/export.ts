/**
 * The inspector's export (docs/export-format.md): the same file as `cussec
 * export`, as a download. It is written on a worker thread with a connection
 * of its own over one snapshot (the node keeps serving), into a private
 * temporary folder, and streamed from there; the folder goes when the answer
 * has been sent or abandoned.
 */
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ExportBusyError, exportJournal } from '../../service/export/export-runner.js';
import { ExportRequestError } from '../../service/export/write-export.js';
import type { AppContext } from '../context.js';
import { HttpError, statusOf } from '../http-error.js';
import { registerRoute } from '../route.js';
import { id } from '../schemas.js';

const seq = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** `from`, `to`: the range (default the whole journal); `table`: the table checked by rule. */
const exportQuery = z
  .object({ from: seq.optional(), to: seq.optional(), table: id.optional() })
  .strict();

export const EXPORT_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8';

export function exportRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRoute(app, ctx, {
    method: 'GET',
    url: '/api/v1/journal/export',
    summary:
      'The journal (or a range of it) for an independent verifier: NDJSON, docs/export-format.md',
    tag: 'inspector',
    roles: ['inspector'],
    query: exportQuery,
    textAnswers: [EXPORT_CONTENT_TYPE],
    handler: async ({ query, reply }) => {
      const dir = mkdtempSync(join(tmpdir(), 'cussec-download-'));
      const path = join(dir, 'export.ndjson');
      try {
        const written = await exportJournal(
          ctx.store,
          { fromSeq: query.from, toSeq: query.to, tableId: query.table ?? null },
          path,
        );
        const { fromSeq, toSeq } = written.range;
        const name = `cussec-export-${query.table ?? 'floor'}-${fromSeq}-${toSeq}.ndjson`;
        const file = createReadStream(path);
        file.once('close', () => rmSync(dir, { recursive: true, force: true }));
        void reply
          .header('content-type', EXPORT_CONTENT_TYPE)
          .header('content-disposition', `attachment; filename="${name}"`)
          .header('content-length', String(written.bytes));
        return file;
      } catch (error) {
        rmSync(dir, { recursive: true, force: true });
        if (error instanceof ExportRequestError)
          throw new HttpError(statusOf(error.code), error.code, error.message);
        if (error instanceof ExportBusyError) throw new HttpError(503, error.code, error.message);
        throw error;
      }
    },
  });
}
