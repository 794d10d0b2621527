import swagger from '@fastify/swagger';
import { apiErrorSchema, type ErrorCode, errorMessages, pageOf, type Resource, resourceList } from '@mostrador/contract';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type BodyKind, operationTable, type ProducedKind, tagOfArea, tagTable } from './openapi-operations.js';

/**
 * The API's OpenAPI 3.1 document (GET /api/docs/json, decision 0074), made from the routes
 * themselves in ONE place: the zod schemas of each route (fastify-type-provider-zod), then for
 * every operation a stable `operationId` (`leads.list`, `orders.place`), a Spanish summary, one
 * product-area tag, its security requirement, its 4xx answers in the one error shape, and the
 * CSV or raw bytes it reads or writes. What can be derived is derived (the route's method, path,
 * config and the contract's resource declarations); what cannot is declared once in
 * `openapi-operations.ts`. No route file describes itself.
 */

/** Named components: the schemas registered here become `components.schemas` and are `$ref`ed wherever a route uses them. */
const components = z.registry<{ id: string }>();
/** The ids registered for a request body: their input variant takes the plain name. */
const inputIds = new Set<string>();
const component = (schema: z.ZodType, id: string, io: 'input' | 'output') => {
  components.add(schema, { id });
  if (io === 'input') inputIds.add(id);
};

const pascal = (key: string) =>
  key
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
const camel = (key: string) => {
  const p = pascal(key);
  return p ? p[0].toLowerCase() + p.slice(1) : p;
};

/** The component names of a declared resource: its record, its create and update bodies, its page. */
export const resourceComponent = (resource: Pick<Resource, 'key'>) => pascal(resource.key);

const genericPage = pageOf(z.unknown());
/** What the standard delete of a resource answers (resources/crud.ts). */
const removed = z.object({ status: z.literal(200), _id: z.string() });
component(removed, 'Removed', 'output');
component(apiErrorSchema, 'Error', 'output');
component(genericPage, 'Page', 'output');
for (const resource of resourceList) {
  const name = resourceComponent(resource);
  component(resource.entity, name, 'output');
  if (!components.has(resource.input)) component(resource.input, `${name}Create`, 'input');
  component(resource.patch, `${name}Update`, 'input');
}

/** What the document needs to know of a route beyond its schema: its access and the bodies its plugin parses. */
interface RouteFacts {
  access: 'public' | 'session' | 'company';
  body?: BodyKind;
  /** The tag the route's module gave it (a resource key or a module name), mapped to its area. */
  moduleTag?: string;
}

const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The security requirements of each access, as the auth plugin enforces them. */
const securityOf: Record<RouteFacts['access'], Record<string, string[]>[]> = {
  public: [],
  session: [{ sesion: [] }],
  company: [{ sesion: [], compania: [] }, { claveApi: [] }],
};

/** The 4xx answers in the one error shape, each a named response with a Spanish example. */
const errorResponses: Record<string, { name: string; description: string; code: ErrorCode; msg?: string; details?: { path: string; msg: string }[] }> = {
  '400': {
    name: 'BadRequest',
    description: 'Solicitud no válida: un campo, un parámetro o el cuerpo (los detalles nombran cada campo)',
    code: 'VALIDATION',
    msg: 'Nombre: Este campo es obligatorio',
    details: [{ path: 'name', msg: 'Este campo es obligatorio' }],
  },
  '401': {
    name: 'Unauthorized',
    description: 'Sin sesión válida, sin compañía (X-Company-Id) o sin el permiso que la operación necesita',
    code: 'TOKEN_MISSING',
  },
  '404': { name: 'NotFound', description: 'El registro no existe en la compañía (o no es de los que el usuario ve)', code: 'NOT_FOUND' },
  '409': { name: 'Conflict', description: 'Choca con lo guardado: un valor que debe ser único, un estado que ya cambió', code: 'CONFLICT' },
  '413': { name: 'PayloadTooLarge', description: 'El cuerpo es más grande de lo que la operación acepta', code: 'PAYLOAD_TOO_LARGE' },
  '415': { name: 'UnsupportedMediaType', description: 'El tipo de contenido del cuerpo no es el que la operación lee', code: 'UNSUPPORTED_MEDIA_TYPE' },
  '429': {
    name: 'TooManyRequests',
    description: 'Demasiadas solicitudes: espera los segundos de Retry-After',
    code: 'RATE_LIMITED',
    msg: 'Demasiadas solicitudes desde esta conexión. Espera 30 segundos e inténtalo de nuevo',
  },
};

/** Content of the bodies a route's plugin reads without a JSON schema. */
const bodyContent: Record<BodyKind, { description: string; content: Record<string, unknown> }> = {
  csv: {
    description: 'Un archivo CSV tal como lo guarda una planilla (UTF-8 o Windows-1252, con coma o punto y coma)',
    content: { 'text/csv': { schema: { type: 'string' } } },
  },
  binary: {
    description: 'Los bytes del archivo, sin codificar (el tipo se reconoce por su contenido)',
    content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
  },
  provider: {
    description: 'El evento tal como lo envía y firma el proveedor (se verifica sobre los bytes recibidos)',
    content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } },
  },
};

const producedContent: Record<ProducedKind, { description: string; content: Record<string, unknown> }> = {
  csv: { description: 'Un archivo CSV (UTF-8 con BOM)', content: { 'text/csv': { schema: { type: 'string' } } } },
  file: { description: 'Los bytes del archivo', content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
  image: { description: 'Una imagen', content: { 'image/*': { schema: { type: 'string', contentMediaType: 'image/*' } } } },
  events: { description: 'Un flujo de eventos del servidor (SSE) que no termina', content: { 'text/event-stream': { schema: { type: 'string' } } } },
  text: { description: 'Texto plano', content: { 'text/plain': { schema: { type: 'string' } } } },
  none: { description: 'Sin cuerpo', content: {} },
};

/** How each standard operation of a declared resource is named and summed up. */
const lower = (label: string) => (label.length > 1 && label[1] === label[1].toUpperCase() && /[A-Z]/.test(label[1]) ? label : label[0].toLowerCase() + label.slice(1));
const crud = {
  list: (r: Resource) => `Lista de ${lower(r.labelPlural)}`,
  get: (r: Resource) => `Detalle de ${lower(r.label)}`,
  create: (r: Resource) => `Crea ${lower(r.label)}`,
  update: (r: Resource) => `Actualiza ${lower(r.label)}`,
  remove: (r: Resource) => `Elimina ${lower(r.label)}`,
} as const;

const resourceByPath = [...resourceList].sort((a, b) => b.path.length - a.path.length);

/**
 * The derived operation id and summary of METHOD path (an OpenAPI path under /api):
 * `<resource>.<verb>` for the standard calls of a resource (list, get, create, update, remove),
 * `<resource>.<rest of the path in camelCase>` for the others, with the verb of PUT, PATCH and
 * DELETE in front. The contract's resource a path starts with names the resource; otherwise its
 * first segment does.
 */
export function deriveOperation(method: string, path: string): { id: string; resource?: Resource; summary?: string } {
  const rel = path.replace(/^\/api\//, '');
  const resource = resourceByPath.find((r) => rel === r.path || rel.startsWith(`${r.path}/`));
  const head = resource ? resource.path : rel.split('/')[0];
  const area = resource ? camel(resource.key) : camel(head);
  const tail = rel.slice(head.length).split('/').filter(Boolean);
  const rest = tail.filter((s) => !s.startsWith('{'));
  const endsWithParam = tail.length > 0 && tail[tail.length - 1].startsWith('{');
  if (rest.length === 0) {
    const verb = method === 'GET' ? (endsWithParam ? 'get' : 'list') : method === 'POST' ? 'create' : method === 'DELETE' ? 'remove' : 'update';
    const summary = resource && tail.length <= 1 ? crud[verb](resource) : undefined;
    return { id: `${area}.${verb}`, resource, summary };
  }
  const name = camel(rest.join('-'));
  const prefixed = (verb: string) => (name.startsWith(verb) ? name : `${verb}${pascal(name)}`);
  const action = method === 'PUT' || method === 'PATCH' ? prefixed('update') : method === 'DELETE' ? prefixed('remove') : method === 'GET' && endsWithParam ? prefixed('get') : name;
  return { id: `${area}.${action}`, resource };
}

export interface OpenapiOptions {
  version: string;
}

/**
 * Registers @fastify/swagger with the document's transforms. Registered before the routes: its
 * onRoute hook notes what each route's plugin parses (a text/csv parser, a catch-all one for raw
 * bytes) and the route's access.
 */
export const openapiPlugin = fp(async (app: FastifyInstance, options: OpenapiOptions) => {
  const facts = new Map<string, RouteFacts>();
  app.addHook('onRoute', function (this: FastifyInstance, route: RouteOptions) {
    const config = (route.config ?? {}) as { public?: boolean; company?: false };
    const schema = (route.schema ?? {}) as { body?: unknown; tags?: string[] };
    let body: BodyKind | undefined;
    if (!schema.body) {
      // a plugin that reads CSV adds a text/csv parser, and each route of it that takes a file
      // sets the file's size limit; one that reads the raw bytes (to verify a provider's
      // signature, to stream a file) removes the JSON parser for a catch-all one
      if (this.hasContentTypeParser('text/csv')) body = route.bodyLimit ? 'csv' : undefined;
      else if (!this.hasContentTypeParser('application/json')) body = config.public ? 'provider' : 'binary';
    }
    const access: RouteFacts['access'] = config.public ? 'public' : config.company === false ? 'session' : 'company';
    for (const method of [route.method].flat()) {
      facts.set(`${method} ${openapiPath(route.url)}`, { access, body, moduleTag: schema.tags?.[0] });
    }
  });

  const zodTransform = createJsonSchemaTransform({ schemaRegistry: components });
  const zodComponents = createJsonSchemaTransformObject({ schemaRegistry: components });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Mostrador API',
        version: options.version,
        description:
          'La API del back-office de Mostrador. Cada llamada lleva el token de la sesión (POST /api/login) y la compañía en X-Company-Id, o una clave de API de la compañía; las públicas (ingreso, webhooks, catálogo público) no llevan nada. Los errores tienen siempre la forma `Error`, con el mensaje en español.',
      },
      servers: [{ url: '/', description: 'Este servidor' }],
      tags: tagTable.map(({ name, displayName, description }) => ({ name, description, 'x-displayName': displayName })),
      components: {
        securitySchemes: {
          sesion: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'El token de acceso que responde POST /api/login (y renueva GET /api/token). Va con `compania` salvo en las llamadas de la propia sesión.',
          },
          compania: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Company-Id',
            description: 'El id de la compañía en la que se trabaja: una de las del usuario de la sesión.',
          },
          claveApi: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'mst_…',
            description: 'Una clave de API (`mst_…`) creada en la compañía: la compañía va en la clave, no se envía X-Company-Id.',
          },
        },
      },
    },
    transform: (input) => {
      const result = zodTransform(input);
      const method = [input.route.method].flat()[0];
      const key = `${method} ${openapiPath(input.url)}`;
      // the alias of SPEC's `PUT /groups/{id}/users/` is the same operation as the one without the slash
      if (input.url.endsWith('/') && facts.has(`${method} ${openapiPath(input.url.slice(0, -1))}`)) return { schema: { hide: true }, url: input.url };
      const fact = facts.get(key);
      const schema = result.schema as Record<string, unknown>;
      if (fact && !schema.hide) schema['x-mostrador'] = fact;
      return result;
    },
    transformObject: (input) => finish(zodComponents(input) as unknown as Document),
  });
});

// ---- the document, finished ------------------------------------------------------------------------

type Json = Record<string, unknown>;
interface Operation extends Json {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Json[];
  parameters?: Json[];
  requestBody?: { required?: boolean; description?: string; content: Json };
  responses: Record<string, Json>;
  'x-mostrador'?: RouteFacts;
}
interface Document extends Json {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; responses?: Record<string, Json>; securitySchemes?: Json };
}

const methods = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** Every operation named, summed up, tagged, secured and with its errors; components named and pruned. */
function finish(doc: Document): Document {
  doc.components.responses = Object.fromEntries(
    Object.values(errorResponses).map(({ name, description, code, msg, details }) => [
      name,
      {
        description,
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/Error' },
            example: { errors: { code, msg: msg ?? errorMessages.es[code], ...(details ? { details } : {}) } },
          },
        },
      },
    ]),
  );

  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!methods.includes(method)) continue;
      const fact = op['x-mostrador'];
      delete op['x-mostrador'];
      const key = `${method.toUpperCase()} ${path}`;
      const declared = operationTable[key];
      const derived = deriveOperation(method.toUpperCase(), path);
      op.operationId = declared?.id ?? derived.id;
      const summary = declared?.summary ?? derived.summary;
      if (summary) op.summary = summary;
      const area = declared?.tag ?? tagOfArea(fact?.moduleTag ?? derived.resource?.key ?? path.split('/')[2]);
      if (area) op.tags = [area];
      else delete op.tags;
      if (declared?.description) op.description = declared.description;

      // an id in the path or the query is the one `Id`
      for (const parameter of op.parameters ?? []) {
        const schema = parameter.schema as Json | undefined;
        if (schema?.type !== 'string' || schema.format !== 'uuid') continue;
        const { description: _d, ...shape } = schema;
        doc.components.schemas.Id ??= shape;
        if (JSON.stringify(doc.components.schemas.Id) === JSON.stringify(shape)) parameter.schema = { $ref: '#/components/schemas/Id' };
      }

      const access = fact?.access ?? 'company';
      op.security = securityOf[access];

      // the body a plugin parses without a schema (CSV, raw bytes, a provider's signed event)
      if (!op.requestBody && fact?.body && ['post', 'put', 'patch'].includes(method)) op.requestBody = { required: true, ...bodyContent[fact.body] };
      // what it answers when that is not JSON
      if (declared?.produces) {
        const produced = producedContent[declared.produces];
        op.responses['200'] = { description: produced.description, ...(declared.produces === 'none' ? {} : { content: produced.content }) };
        if (op.responses['200'] && declared.produces !== 'none') delete op.responses.default;
      }
      for (const [code, response] of Object.entries(op.responses)) {
        if (response.description === 'Default Response') response.description = /^2/.test(code) ? 'Respuesta correcta' : 'Respuesta';
      }

      // the list of a declared resource: a page of its records, by name
      if (derived.resource && method === 'get' && derived.id === `${camel(derived.resource.key)}.list` && op.responses['200']) {
        const name = `${resourceComponent(derived.resource)}Page`;
        doc.components.schemas[name] = {
          allOf: [
            { $ref: '#/components/schemas/Page' },
            { type: 'object', properties: { payload: { type: 'array', items: { $ref: `#/components/schemas/${resourceComponent(derived.resource)}` } } } },
          ],
          description: `Una página de ${lower(derived.resource.labelPlural)}; con \`fields\`, cada registro trae solo esos campos y _id`,
        };
        op.responses['200'] = { description: crud.list(derived.resource), content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } };
      }

      // the standard delete answers the id it removed
      if (derived.resource && method === 'delete' && derived.id === `${camel(derived.resource.key)}.remove` && !op.responses['200']?.content) {
        op.responses['200'] = { description: crud.remove(derived.resource), content: { 'application/json': { schema: { $ref: '#/components/schemas/Removed' } } } };
      }

      // the errors: what every call may answer, and what its access and shape add
      const errors = new Set<string>(['400', '429']);
      if (access !== 'public') errors.add('401');
      if (path.includes('{')) errors.add('404');
      if (access !== 'public' && method !== 'get') errors.add('409');
      if (op.requestBody) errors.add('413');
      if (fact?.body === 'csv') errors.add('415');
      for (const code of declared?.errors ?? []) errors.add(code);
      for (const code of [...errors].sort()) {
        if (!op.responses[code]) op.responses[code] = { $ref: `#/components/responses/${errorResponses[code].name}` };
      }
    }
  }
  doc.components.schemas = namedSchemas(doc);
  return doc;
}

/**
 * The registry's components under the names they were registered with: fastify-type-provider-zod
 * writes an input (`XInput`) and an output (`X`) variant of each; the one a schema was
 * registered for takes the plain name, the other keeps a suffix if anything uses it. Then only
 * what some operation reaches is kept.
 */
function namedSchemas(doc: Document): Record<string, Json> {
  const rename = new Map<string, string>();
  for (const id of inputIds) {
    rename.set(`${id}Input`, id);
    rename.set(id, `${id}Output`);
  }
  const refOf = (name: string) => `#/components/schemas/${name}`;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
        const name = v.slice('#/components/schemas/'.length);
        out[k] = refOf(rename.get(name) ?? name);
      } else out[k] = rewrite(v);
    }
    return out;
  };
  const schemas: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(doc.components.schemas)) schemas[rename.get(name) ?? name] = rewrite(schema) as Json;
  doc.paths = rewrite(doc.paths) as Document['paths'];

  // keep what the paths reach, through the schemas and responses they name
  const used = new Set<string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') {
        if (v.startsWith('#/components/schemas/')) {
          const name = v.slice('#/components/schemas/'.length);
          if (!used.has(name)) {
            used.add(name);
            visit(schemas[name]);
          }
        } else if (v.startsWith('#/components/responses/')) visit(doc.components.responses?.[v.slice('#/components/responses/'.length)]);
      } else visit(v);
    }
  };
  visit(doc.paths);
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)).sort(([a], [b]) => a.localeCompare(b)));
}
