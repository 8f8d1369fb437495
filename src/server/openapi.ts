/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the routes
 * validate with, so the document cannot drift from what the server accepts.
 */
import { z } from 'zod';
import type { RouteSpec } from './route.js';

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', description: 'stable, snake_case' },
        message: { type: 'string' },
        article: {
          type: 'string',
          description: 'the article of the regulation enforced, e.g. "3.4"',
        },
      },
    },
  },
};

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output' = 'input'): object =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any' });

function parameters(spec: RouteSpec): object[] {
  const out: object[] = [];
  for (const [where, schema] of [
    ['path', spec.params],
    ['query', spec.query],
  ] as const) {
    if (schema === undefined) continue;
    const doc = jsonSchema(schema) as { properties?: Record<string, object>; required?: string[] };
    for (const [name, property] of Object.entries(doc.properties ?? {})) {
      out.push({
        name,
        in: where,
        required: where === 'path' || (doc.required ?? []).includes(name),
        schema: property,
      });
    }
  }
  return out;
}

function operation(spec: RouteSpec): object {
  const success = String(spec.successStatus ?? 200);
  return {
    summary: spec.summary,
    tags: [spec.tag],
    ...(spec.roles === 'public' ? { security: [] } : {}),
    description:
      spec.roles === 'public'
        ? 'Open to everyone.'
        : spec.roles === 'any'
          ? 'Any logged-in user.'
          : `Roles: ${spec.roles.join(', ')}.`,
    parameters: parameters(spec),
    ...(spec.body === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(spec.body) } },
          },
        }),
    responses: {
      [success]:
        success === '204'
          ? { description: 'done; no content' }
          : spec.response === undefined && spec.textAnswers === undefined
            ? { description: 'done' }
            : {
                description: 'done',
                content: {
                  ...(spec.response === undefined
                    ? {}
                    : { 'application/json': { schema: jsonSchema(spec.response, 'output') } }),
                  ...Object.fromEntries(
                    (spec.textAnswers ?? []).map((type) => [type, { schema: { type: 'string' } }]),
                  ),
                },
              },
      '4XX': {
        description: 'refused: see error.code',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  };
}

export function openApiDocument(routes: readonly RouteSpec[]): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const spec of routes) {
    const path = spec.url.replace(/:([A-Za-z]+)/g, '{$1}');
    (paths[path] ??= {})[spec.method.toLowerCase()] = operation(spec);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cussec',
      version: '1',
      description: 'Sic Bo tables under Despacho Regulamentar Externo n.º 57/2004 (Macau).',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }, { cookie: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'cussec_session' },
      },
      schemas: { Error: errorSchema },
    },
    paths,
  };
}
