/**
 * Reading a multipart upload (POST /api/v3/scans) in a handler.
 *
 * app.ts registers @fastify/multipart with `attachFieldsToBody: true`: before validation the
 * whole form is read, files are buffered in memory (at most config.maxUploadBytes each; larger
 * answers 413 before any handler runs) and `request.body` becomes `{ [partName]: part }`, where a
 * file part has `filename`, `mimetype` and `toBuffer()`, and a text part has `value`. The
 * operation's JSON-schema body validation is skipped for multipart operations (a form is not a
 * JSON object); the handler checks the parts, with this helper.
 */
import type { FastifyRequest } from 'fastify';

export interface UploadedFile {
  data: Buffer;
  filename: string;
  mimetype: string;
}

export interface MultipartForm {
  /** File parts by name (the last one when a name repeats; see `counts`). */
  files: Record<string, UploadedFile>;
  /** Text parts by name; a part sent as a file with a text/JSON type is also readable here. */
  fields: Record<string, string>;
  /** How many parts came under each name (file and text parts together), so a handler can refuse repeats. */
  counts: Record<string, number>;
}

/** The parts of a multipart request (empty when the request was not multipart). */
export async function readMultipart(req: FastifyRequest): Promise<MultipartForm> {
  const form: MultipartForm = { files: {}, fields: {}, counts: {} };
  const body = req.body as Record<string, any> | undefined;
  if (!body || typeof body !== 'object' || !req.isMultipart()) return form;
  for (const [name, raw] of Object.entries(body)) {
    // @fastify/multipart gathers the parts of a repeated name into an array, in the order sent.
    form.counts[name] = Array.isArray(raw) ? raw.length : 1;
    const part = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (!part || typeof part !== 'object') continue;
    if (part.type === 'file') {
      const data: Buffer = await part.toBuffer();
      form.files[name] = { data, filename: part.filename ?? '', mimetype: part.mimetype ?? '' };
      // Clients that send JSON as a Blob (e.g. FormData with a Blob) still give a readable field.
      if (/^(text\/|application\/json)/.test(part.mimetype ?? '') && name !== 'file') form.fields[name] = data.toString('utf8');
    } else if (part.type === 'field') {
      form.fields[name] = String(part.value ?? '');
    }
  }
  return form;
}
