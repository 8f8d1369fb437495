import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../ledger/index.js';
import { z } from 'zod';
import { buildApp } from './app.js';
import { registerRoute, textBody } from './route.js';

interface Operation {
  readonly responses: Record<string, { content?: { 'application/json'?: { schema?: object } } }>;
}

const dir = mkdtempSync(join(tmpdir(), 'cussec-openapi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('/openapi.json', () => {
  it('describes the answer of every route (a 204 answers nothing)', async () => {
    const store = await openSqliteStore({ path: join(dir, 'api.sqlite'), currency: 'MOP' });
    const app = await buildApp({ store, logger: false });
    try {
      const doc = (await app.fastify.inject({ url: '/openapi.json' })).json<{
        paths: Record<string, Record<string, Operation>>;
      }>();
      const described: string[] = [];
      const undescribed: string[] = [];
      for (const [path, operations] of Object.entries(doc.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          const key = `${method.toUpperCase()} ${path}`;
          const success = Object.entries(operation.responses).find(([status]) =>
            status.startsWith('2'),
          );
          // JSON, or for an answer in another format only (the export's NDJSON), that format.
          const content = success?.[1].content ?? {};
          const schema = (content['application/json'] ?? Object.values(content)[0])?.schema;
          // A 204 answers nothing, so there is nothing to describe.
          (schema === undefined && success?.[0] !== '204' ? undescribed : described).push(key);
        }
      }
      expect(undescribed).toEqual([]);
      expect(described).toContain('GET /api/v1/journal');
      const exported = doc.paths['/api/v1/journal/export']!['get']!.responses['200']!;
      expect(Object.keys(exported.content ?? {})).toEqual(['application/x-ndjson; charset=utf-8']);
      // A daily report answers JSON, or CSV or HTML as text.
      const report = doc.paths['/api/v1/tables/{tableId}/reports/daily']!['get']!.responses['200']!;
      expect(Object.keys(report.content ?? {})).toEqual([
        'application/json',
        'text/csv',
        'text/html',
      ]);
    } finally {
      await app.shutdown();
    }
  });

  it("describes a journal entry as the union of the journal's entry types", async () => {
    const store = await openSqliteStore({ path: join(dir, 'union.sqlite'), currency: 'MOP' });
    const app = await buildApp({ store, logger: false });
    try {
      const doc = (await app.fastify.inject({ url: '/openapi.json' })).json<{
        paths: Record<string, Record<string, Operation>>;
      }>();
      const schema = doc.paths['/api/v1/journal']!['get']!.responses['200']!.content![
        'application/json'
      ]!.schema as { items: { anyOf: { properties: { type: { const: string } } }[] } };
      const types = schema.items.anyOf.map((m) => m.properties.type.const);
      expect(types).toContain('round-settled');
      expect(types).toContain('table-created');
      expect(types).toContain('deposit');
    } finally {
      await app.shutdown();
    }
  });

  it('fails an answer that does not fit its schema, and lets a text body through', async () => {
    const store = await openSqliteStore({ path: join(dir, 'check.sqlite'), currency: 'MOP' });
    const app = await buildApp({ store, logger: false });
    try {
      expect(app.ctx.checkAnswers).toBe(true);
      const response = z.strictObject({ count: z.number().int() });
      registerRoute(app.fastify, app.ctx, {
        method: 'GET',
        url: '/test/misfit',
        summary: 'an answer with a field its schema lacks',
        tag: 'test',
        roles: 'public',
        response,
        handler: () => Promise.resolve({ count: 1, extra: true }),
      });
      registerRoute(app.fastify, app.ctx, {
        method: 'GET',
        url: '/test/text',
        summary: 'a text body',
        tag: 'test',
        roles: 'public',
        response,
        handler: ({ reply }) => {
          void reply.header('content-type', 'text/csv');
          return Promise.resolve(textBody('count\n1\n'));
        },
      });
      const misfit = await app.fastify.inject({ url: '/test/misfit' });
      expect(misfit.statusCode).toBe(500);
      const text = await app.fastify.inject({ url: '/test/text' });
      expect(text.statusCode).toBe(200);
      expect(text.body).toBe('count\n1\n');
    } finally {
      await app.shutdown();
    }
  });
});
