/**
 * The local Scan Service's HTTP application: one fastify instance whose routes come from the API
 * description (openapi/) through fastify-openapi-glue, handlers by operationId. Requests are
 * validated against the description; every client mistake answers a 4xx `{message}`.
 */
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifySchemaCompiler,
  type FastifyServerOptions,
} from 'fastify';
import multipart from '@fastify/multipart';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { stringify } from 'yaml';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Account, Handler, ServiceContext } from './context';
import type { ScanEngine } from './engine/types';
import { ApiError, validationFailed } from './shared/errors';
import { loadApiDocument } from '../../contract/openapi';
import { KEPT_ROOT } from '../../contract/openapi/kept-files';
import { authenticate } from './shared/auth';
import { PICTURE_ROUTE, pictureName, picturePng } from './catalog/pictures';
import { bulkRateLimiter } from './shared/bulk';
import { describeValidation } from './shared/validation';
import { BULK_OPERATIONS, operationHandlers } from './areas';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

export interface AppOptions {
  /** Replaces or adds handlers by operationId (tests of the wiring). */
  handlers?: Record<string, Handler>;
  /** Another API document (tests of the wiring); default: the service's own. */
  document?: Record<string, any>;
}

/** JSON bodies up to 16 MiB: 10,000 bulk rows of 255-character brands fit. */
export const JSON_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * JSON bodies: fastify's own parser (prototype poisoning refused), except that an empty body is
 * no body: common clients (the vendor's TypeScript client among them) send
 * `Content-Type: application/json` on every request, DELETE included.
 */
function acceptJsonBodies(app: FastifyInstance): void {
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (typeof body === 'string' ? body.trim() === '' : (body as Buffer).length === 0) return done(null, undefined);
    const parsed = jsonParser(req, body as string, done);
    // fastify's type allows a parser that answers with a promise instead of calling `done`: its outcome goes to `done` too.
    if (parsed instanceof Promise)
      parsed.then(
        (value) => done(null, value),
        (err: Error) => done(err, undefined),
      );
  });
}

/** Each route checks its body's content type as the description says; bulk routes are rate limited and report every bad row at once. */
function checkBodiesAsDescribed(
  app: FastifyInstance,
  doc: ReturnType<typeof loadApiDocument>,
  bulkLimiter: ReturnType<typeof bulkRateLimiter>,
): void {
  const bodyRequired = new Set<string>();
  for (const item of Object.values(doc.paths ?? {}) as any[]) {
    for (const op of Object.values(item ?? {}) as any[]) if (op?.operationId && op.requestBody?.required) bodyRequired.add(op.operationId);
  }
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Record<string, any> | undefined;
    // Responses are described for clients and the generated types, not used to filter output.
    if (schema?.response) delete schema.response;
    const opId = (schema as any)?.operationId as string | undefined;
    if (schema?.body?.content?.['multipart/form-data']) {
      // A form is not a JSON object: the handler checks its parts (shared/multipart.ts).
      delete schema.body;
      const requireMultipart = async (req: FastifyRequest) => {
        if (!req.isMultipart()) {
          throw new ApiError(400, 'This endpoint takes a multipart/form-data body with the parts "file" and "attributes".');
        }
      };
      route.preValidation = [requireMultipart, ...toArray(route.preValidation)];
    }
    const jsonBody = schema?.body?.content?.['application/json'];
    if (jsonBody) {
      // fastify validates a body only against the schema of its own content type: a body of
      // any other type (a form, say) must not slip past the description unchecked.
      const requireJson = async (req: FastifyRequest) => {
        const type = req.headers['content-type'];
        if (type === undefined || req.body === undefined || req.body === null) {
          if (!(opId && bodyRequired.has(opId))) return; // optional body, none sent
          if (opId && BULK_OPERATIONS.has(opId)) throw validationFailed([], 'A JSON body is required (Content-Type: application/json).');
          throw new ApiError(422, 'A JSON body is required (Content-Type: application/json).');
        }
        if (!/^application\/json\s*(;|$)/i.test(type))
          throw new ApiError(415, `Unsupported Content-Type "${type}": send application/json.`);
      };
      route.preValidation = [requireJson, ...toArray(route.preValidation)];
    }
    if (opId && BULK_OPERATIONS.has(opId)) {
      // Bulk handlers merge schema errors with their own row checks into one 422 listing every bad row.
      route.attachValidation = true;
      route.onRequest = [...toArray(route.onRequest), bulkLimiter];
    }
  });
}

export async function buildApp(
  ctx: ServiceContext,
  engine: ScanEngine,
  accounts: Map<string, Account>,
  opts: AppOptions = {},
): Promise<FastifyInstance> {
  const doc = opts.document ?? loadApiDocument();
  // Two validators from the same description: query strings and path params are text and need
  // coercion ("2" -> 2); JSON bodies are checked exactly as sent (a string is not a number).
  const queryAjv = makeAjv(true);
  const bodyAjv = makeAjv(false);
  const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
    compileOnFirstUse(httpPart === 'body' ? bodyAjv : queryAjv, schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
  const compilersFactory: CompilersFactory = {
    // Typed by fastify as @fastify/ajv-compiler's factory; fastify calls the compiler it returns as
    // any validator compiler (as setValidatorCompiler would install it).
    buildValidator: (() => validatorCompiler) as unknown as CompilersFactory['buildValidator'],
    buildSerializer: (externalSchemas, serializerOpts) => {
      // fastify's own default, resolved from fastify's folder as fastify resolves it.
      const compiler = require.resolve('@fastify/fast-json-stringify-compiler', { paths: [dirname(require.resolve('fastify'))] });
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return require(compiler)()(externalSchemas, serializerOpts);
    },
  };
  // The compilers are given as factories (not set afterwards) so fastify does not load its default
  // Ajv compiler at every start; its default serializer compiler is loaded only if a route ever needs
  // one (response schemas are removed below, so none does).
  const app = Fastify({ logger: false, bodyLimit: JSON_BODY_LIMIT, schemaController: { compilersFactory } });

  app.setErrorHandler((err: FastifyError & { validation?: any[]; validationContext?: string }, req, reply) => sendError(err, req, reply));

  acceptJsonBodies(app);
  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({ message: `No such endpoint: ${req.method} ${req.url.split('?')[0]}.` });
  });

  // Bearer key before anything else (also before validation), on every API path.
  app.decorateRequest('account', null as unknown as Account);
  app.addHook('onRequest', async (req) => {
    // An empty body is no body, whatever its Content-Type says (see the JSON parser below).
    if (
      req.headers['content-length'] === '0' &&
      req.headers['transfer-encoding'] === undefined &&
      /^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')
    )
      delete req.headers['content-type'];
    if (req.url.startsWith('/api/')) req.account = authenticate(accounts, req.headers.authorization);
  });

  // Multipart (POST /api/v3/scans): `attachFieldsToBody: true` reads the whole form before
  // validation; each file is buffered (limit config.maxUploadBytes, larger -> 413) and
  // request.body becomes { file: <file part: filename, mimetype, toBuffer()>, attributes:
  // <field part: value> }. Handlers use readMultipart(req) from shared/multipart.ts.
  await app.register(multipart, {
    attachFieldsToBody: true,
    throwFileSizeLimit: true,
    limits: { fileSize: ctx.config.maxUploadBytes, files: 5, fields: 20, parts: 25, fieldSize: 1024 * 1024 },
  });
  // Runs after the multipart plugin's own preValidation hook has read the form: an error before
  // this mark is a form the client sent broken (see multipartProblem).
  app.addHook('preValidation', async (req) => {
    (req as FormRead)[FORM_READ] = true;
  });

  checkBodiesAsDescribed(app, doc, bulkRateLimiter(ctx));

  const handlers: Record<string, Handler> = { ...operationHandlers(ctx, engine), ...opts.handlers };
  const glue = await requirePlugin('fastify-openapi-glue', ['@seriousme/openapi-schema-validator']);
  await app.register(glue, {
    specification: doc,
    operationResolver: (operationId: string) => {
      const handler = handlers[operationId];
      if (handler) return handler;
      return async () => {
        throw new ApiError(501, `Operation ${operationId} is not implemented by the local service yet.`);
      };
    },
  });

  // Product pictures, without a key (a sheet's IMAGE fetches them with none): stand-in only.
  app.get(`${PICTURE_ROUTE}:name`, async (req, reply) => {
    const named = pictureName((req.params as { name: string }).name);
    if (!named) throw new ApiError(404, 'No such picture.');
    return reply.type('image/png').header('cache-control', 'public, max-age=86400').send(picturePng(named.asin, named.index));
  });
  // The description and its reference page, without a key.
  app.get('/openapi.json', async () => doc);
  await app.register(swaggerDocument(doc));
  // Assets come from the installed package (nothing from the network); paths are explicit so the
  // jest bundle (see requirePlugin) finds them too.
  const uiDir = join(__dirname, '..', '..', 'node_modules', '@fastify', 'swagger-ui', 'static');
  await app.register(await requirePlugin('@fastify/swagger-ui', ['@fastify/static', 'content-disposition']), {
    routePrefix: '/docs',
    baseDir: uiDir,
    logo: { type: 'image/svg+xml', content: readFileSync(join(uiDir, 'logo.svg')) },
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });
  return app;
}

function toArray<T>(v: T | T[] | undefined): T[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/**
 * A route's validator, compiled by Ajv on the route's first request rather than at start: compiling
 * the schemas of every route (and of its HEAD twin) took about 0.2 s of each start, and most starts
 * (the tests start the service about 90 times) answer a few routes only. The function answers exactly
 * as the compiled one: same result, same `errors`; and like an Ajv function it has `schemaEnv`, on
 * which fastify hands it the request as parent data (so Ajv may replace a root value).
 */
function compileOnFirstUse(ajv: Ajv2020, schema: object): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const get = () => (compiled ??= ajv.compile(schema));
  const validate = ((data: unknown, dataCxt?: Parameters<ValidateFunction>[1]) => {
    const fn = get();
    const valid = fn(data, dataCxt);
    validate.errors = fn.errors;
    return valid;
  }) as ValidateFunction;
  Object.defineProperty(validate, 'schemaEnv', { get: () => get().schemaEnv });
  return validate;
}

function makeAjv(coerce: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
  });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  return ajv;
}

/** One place that turns anything thrown into the API's error shape. */
function sendError(err: FastifyError & { validation?: any[]; validationContext?: string }, req: FastifyRequest, reply: FastifyReply): void {
  if (err instanceof ApiError) {
    reply
      .code(err.status)
      .headers(err.headers)
      .send({ message: err.message, ...err.extra });
    return;
  }
  if (err.validation) {
    if (err.validationContext === 'params') {
      reply.code(404).send({ message: 'Not found: the id in the path is not a valid id.' });
      return;
    }
    reply.code(422).send({ message: describeValidation(err.validation, err.validationContext ?? 'body') });
    return;
  }
  const formProblem = multipartProblem(err, req);
  if (formProblem) {
    reply.code(400).send({ message: formProblem });
    return;
  }
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    reply.code(status).send({ message: clientErrorMessage(err) });
    return;
  }
  req.log.error(err);
  // eslint-disable-next-line no-console
  console.error('scan service: internal error on', req.method, req.url, err);
  reply.code(500).send({ message: 'Internal error in the local Scan Service.' });
}

const FORM_READ = Symbol('formRead');
type FormRead = FastifyRequest & { [FORM_READ]?: true };

/**
 * A multipart body that cannot be read (no boundary in Content-Type, a boundary other than the
 * body's, a body cut short, a malformed part header) makes the form reader throw plain errors
 * before any handler runs: each is the client's mistake, answered 400 with what is wrong.
 */
function multipartProblem(err: FastifyError, req: FastifyRequest): string | undefined {
  if ((req as FormRead)[FORM_READ] || (err.statusCode !== undefined && err.statusCode < 500)) return undefined;
  if (!/^multipart\//i.test(req.headers['content-type'] ?? '')) return undefined;
  const m = err.message || '';
  const lead = 'The multipart/form-data body could not be read:';
  if (/boundary not found/i.test(m))
    return `${lead} the Content-Type header has no boundary parameter (multipart/form-data; boundary=...).`;
  if (/unexpected end/i.test(m))
    return `${lead} it ended before its closing boundary (the body was cut short, or its boundary is not the one named in Content-Type).`;
  if (/malformed|header/i.test(m)) return `${lead} a part header is malformed (${m}).`;
  return `${lead} ${m || 'it is not a valid form'}.`;
}

function clientErrorMessage(err: FastifyError): string {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return `The request body is not valid JSON: ${err.message}`;
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `The request body is too large (at most ${JSON_BODY_LIMIT} bytes).`;
    case 'FST_REQ_FILE_TOO_LARGE':
      return 'The uploaded file is too large for the service (see maxUploadBytes / SCAN_SERVICE_MAX_UPLOAD_BYTES).';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return `Unsupported Content-Type: send application/json${err.message ? ` (${err.message})` : ''}.`;
    default:
      if (err instanceof SyntaxError) return `The request body is not valid JSON: ${err.message}`;
      return err.message || 'Bad request.';
  }
}

/**
 * @fastify/swagger-ui reads the document from `fastify.swagger()`, normally added by
 * @fastify/swagger (which generates a document from routes). Ours is written by hand, so this
 * tiny plugin stands in for it under the same name and serves the merged description.
 */
function swaggerDocument(doc: Record<string, any>) {
  const plugin = async (app: FastifyInstance) => {
    app.decorate('swagger', (o?: { yaml?: boolean }) => (o?.yaml ? stringify(doc) : doc));
  };
  (plugin as any)[Symbol.for('skip-override')] = true;
  (plugin as any)[Symbol.for('plugin-meta')] = { name: '@fastify/swagger', fastify: '5.x' };
  return plugin;
}

/**
 * fastify-openapi-glue and a dependency of @fastify/swagger-ui (content-disposition) are ES
 * modules. Node 20 (tsx, `npm run service`) requires them directly. Jest's module system cannot
 * load ES modules from node_modules without a transform, so there the package is bundled once to
 * CommonJS with esbuild into node_modules/.cache (same code, only the module format differs), the
 * listed ES-only packages inlined and every other package left to `require`. Adding those packages
 * to jest's transformIgnorePatterns would make this unnecessary.
 */
async function requirePlugin(name: string, inline: string[]): Promise<any> {
  try {
    for (const dep of inline) require(dep); // fails under jest when a dependency is ES-only
    const m = require(name);
    return m.default ?? m;
  } catch {
    const root = join(__dirname, '..', '..');
    const pkgDir = join(root, 'node_modules', ...name.split('/'));
    const pkg = require(join(pkgDir, 'package.json'));
    const cacheDir = KEPT_ROOT;
    const out = join(cacheDir, `${name.replace('/', '__')}-${pkg.version}.cjs`);
    if (!existsSync(out)) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const esbuild = require('esbuild') as typeof import('esbuild');
      const validatorIndex = join(root, 'node_modules', '@seriousme', 'openapi-schema-validator', 'index.js');
      const result = await esbuild.build({
        entryPoints: [join(pkgDir, typeof pkg.main === 'string' ? pkg.main : 'index.js')],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        write: false,
        plugins: [
          {
            name: 'inline-only-esm',
            setup(build) {
              build.onResolve({ filter: /^[^./]/ }, (a) => {
                const bare = a.path.startsWith('@') ? a.path.split('/').slice(0, 2).join('/') : a.path.split('/')[0];
                return inline.includes(bare) || a.path.startsWith('node:') ? undefined : { path: a.path, external: true };
              });
            },
          },
        ],
        // The OpenAPI schema validator finds its JSON schemas next to its own file.
        define: { 'import.meta.url': '__validatorUrl' },
        banner: { js: `var __validatorUrl = require("node:url").pathToFileURL(${JSON.stringify(validatorIndex)}).href;` },
        logLevel: 'silent',
      });
      mkdirSync(cacheDir, { recursive: true });
      const tmp = `${out}.${process.pid}.tmp`;
      writeFileSync(tmp, result.outputFiles[0].text);
      renameSync(tmp, out);
    }
    const m = require(out);
    return m.default ?? m;
  }
}
