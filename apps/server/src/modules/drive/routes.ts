import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  DRIVE_MAX_BYTES,
  DRIVE_UNSUPPORTED,
  type DriveFileOut,
  type DriveKind,
  driveFileOut,
  driveFilePatch,
  driveFilesPage,
  driveFoldersOut,
  driveIdParams,
  driveLimits,
  driveListQuery,
  drivePath,
  drivePublicParams,
  driveTooLarge,
  driveUploadOut,
  driveUploadQuery,
  totalPagesOf,
} from '@mostrador/contract';
import { and, asc, count, desc, eq, getTableColumns, ilike, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import { driveFiles } from '../../db/drive-tables.js';
import { users } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { tenantOf } from '../../plugins/auth.js';
import { writeDemoDriveBytes } from '../../seed/assets/demo-drive.js';
import { nameFor, SNIFF_BYTES, sniff } from './sniff.js';
import { storageOf } from './storage-of.js';
import { type DriveStorage, inlineDisposition } from './storage.js';

type Row = typeof driveFiles.$inferSelect & { uploaderFirst: string | null; uploaderLast: string | null };

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
/** The company and bytes an upload and a delete serialize on (kept once, removed once unused). */
const lockBytes = (db: Db, companyId: string, sha256: string) => db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${companyId}:drive:${sha256}`}, 0))`);

/**
 * `Cache-Control` of a public file: a minute, so a proxy in between drops a deleted file soon;
 * the ETag (the bytes' hash) makes asking again cheap.
 */
export const DRIVE_CACHE_CONTROL = 'public, max-age=60';

/**
 * Drive, the company's media library (issue 15, decision 0056): uploads streamed to the storage
 * with the type read from the bytes and WhatsApp's limit of each kind, the list with its folders,
 * rename and move, delete, and the public address WhatsApp, Messenger and Telegram fetch.
 * Listing is the messaging module's `list` (agents pick files while answering); uploading,
 * renaming and deleting its `create`, `update` and `delete`.
 */
export const driveRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  // the disk under DATA_DIR/drive, or the S3 bucket (decision 0105): one per process, shared with the chats' sender
  const storage: DriveStorage = storageOf(app.settings, app.log);
  const publicUrl = app.settings.publicUrl;
  const tags = ['drive'];
  // the demo's files (seed/assets/demo-drive.ts): their bytes in this server's storage when missing
  if (app.settings.seed) {
    await writeDemoDriveBytes(db, storage).catch((error: unknown) => app.log.warn({ err: error }, 'Drive: no se pudieron escribir los archivos del demo'));
  }

  const out = (r: Row): DriveFileOut => {
    const filePath = drivePath(r.id, r.name);
    return {
      _id: r.id,
      name: r.name,
      folder: r.folder,
      mimeType: r.mimeType,
      kind: r.kind as DriveKind,
      size: r.size,
      sha256: r.sha256,
      path: filePath,
      url: `${publicUrl}${filePath}`,
      uploadedBy: r.uploadedBy ? { _id: r.uploadedBy, name: `${r.uploaderFirst ?? ''} ${r.uploaderLast ?? ''}`.trim() } : null,
      createdAt: r.createdAt.toISOString(),
    };
  };
  const selectRows = (executor: Db = db) =>
    executor
      .select({ ...getTableColumns(driveFiles), uploaderFirst: users.firstName, uploaderLast: users.lastName })
      .from(driveFiles)
      .leftJoin(users, eq(users.id, driveFiles.uploadedBy));
  const fileById = async (companyId: string, id: string, executor: Db = db) =>
    (await selectRows(executor).where(and(eq(driveFiles.companyId, companyId), eq(driveFiles.id, id))))[0] as Row | undefined;

  // ---- upload ---------------------------------------------------------------------------------
  const uploadRoute: FastifyPluginAsyncZod = async (upload) => {
    // the body is the file's bytes, whatever the browser calls them: read as a stream, never parsed
    upload.removeAllContentTypeParsers();
    upload.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    upload.post(
      '/drive/files',
      {
        config: { permission: { module: 'messaging', action: 'create' } },
        schema: { tags, querystring: driveUploadQuery, response: { 200: driveUploadOut, 201: driveUploadOut } },
      },
      async (request, reply) => {
        const { companyId, userId } = tenantOf(request);
        const declared = Number(request.headers['content-length']);
        if (Number.isFinite(declared) && declared > DRIVE_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', driveTooLarge('document'));
        const body = request.body as Readable | undefined;
        if (!body || typeof (body as Readable)[Symbol.asyncIterator] !== 'function') throw new AppError('VALIDATION', 'El archivo está vacío');

        // the first bytes say what the file is; then the rest streams to the storage's staging place, hashed and counted
        const hash = createHash('sha256');
        let head = Buffer.alloc(0);
        let size = 0;
        let kind: DriveKind | undefined;
        let sniffed: ReturnType<typeof sniff> = null;
        let refusal: AppError | undefined;
        const staged = await storage.stage();
        const write = async (chunk: Buffer) => {
          hash.update(chunk);
          await staged.write(chunk);
        };
        try {
          for await (const data of body) {
            const chunk = Buffer.isBuffer(data) ? data : Buffer.from(data as string);
            size += chunk.length;
            // once refused, the rest of the body is read and dropped: the browser then reads the answer
            if (refusal) continue;
            if (size > DRIVE_MAX_BYTES || (kind && size > driveLimits[kind])) {
              refusal = new AppError('PAYLOAD_TOO_LARGE', driveTooLarge(kind ?? 'document'));
              continue;
            }
            if (!kind) {
              head = Buffer.concat([head, chunk]);
              if (head.length < SNIFF_BYTES) continue;
              sniffed = sniff(head, request.query.name);
              if (!sniffed) {
                refusal = new AppError('VALIDATION', DRIVE_UNSUPPORTED);
                continue;
              }
              kind = sniffed.kind;
              if (size > driveLimits[kind]) {
                refusal = new AppError('PAYLOAD_TOO_LARGE', driveTooLarge(kind));
                continue;
              }
              await write(head);
              continue;
            }
            await write(chunk);
          }
          if (!refusal && !kind) {
            if (head.length === 0) refusal = new AppError('VALIDATION', 'El archivo está vacío');
            else {
              sniffed = sniff(head, request.query.name);
              if (!sniffed) refusal = new AppError('VALIDATION', DRIVE_UNSUPPORTED);
              else if (size > driveLimits[sniffed.kind]) refusal = new AppError('PAYLOAD_TOO_LARGE', driveTooLarge(sniffed.kind));
              else {
                kind = sniffed.kind;
                await write(head);
              }
            }
          }
          if (refusal || !sniffed || !kind) throw refusal ?? new AppError('VALIDATION', DRIVE_UNSUPPORTED);
          await staged.finish();
        } catch (error) {
          await staged.discard();
          // a body cut short by the browser is not a server error
          if (error instanceof AppError) throw error;
          if ((error as { code?: string }).code === 'ECONNRESET' || (error as Error).message === 'aborted') throw new AppError('BAD_REQUEST', 'La subida se interrumpió');
          throw error;
        }

        const sha256 = hash.digest('hex');
        const type = sniffed;
        const name = nameFor(request.query.name, type);
        const folder = request.query.folder ?? '';
        const result = await db
          .transaction(async (tx) => {
            await lockBytes(tx as unknown as Db, companyId, sha256);
            const [existing] = await tx.select({ id: driveFiles.id }).from(driveFiles).where(and(eq(driveFiles.companyId, companyId), eq(driveFiles.sha256, sha256)));
            if (existing) return { id: existing.id, duplicate: true };
            const id = randomBytes(18).toString('base64url');
            await tx.insert(driveFiles).values({ companyId, id, folder, name, mimeType: type.mimeType, kind: type.kind, size, sha256, uploadedBy: userId });
            await staged.keepAs(companyId, sha256);
            return { id, duplicate: false };
          })
          .finally(() => staged.discard());
        const file = out((await fileById(companyId, result.id)) as Row);
        if (result.duplicate) {
          const where = file.folder ? ` en la carpeta «${file.folder}»` : '';
          return reply.status(200).send({ file, duplicate: true, msg: `Este archivo ya estaba en Drive como «${file.name}»${where}: no se guardó otra copia` });
        }
        const renamed = name !== request.query.name ? ` (es ${type.ext.toUpperCase()}: se guardó como «${name}»)` : '';
        return reply.status(201).send({ file, duplicate: false, msg: `«${file.name}» subido a Drive${renamed}` });
      },
    );
  };
  await app.register(uploadRoute);

  // ---- list, folders, rename / move, delete ----------------------------------------------------
  app.get(
    '/drive/files',
    { config: { permission: { module: 'messaging', action: 'list' } }, schema: { tags, querystring: driveListQuery, response: { 200: driveFilesPage } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const { page, limit, filter, folder, kind } = request.query;
      const where = and(
        eq(driveFiles.companyId, companyId),
        filter ? ilike(driveFiles.name, `%${escapeLike(filter)}%`) : undefined,
        folder !== undefined ? eq(driveFiles.folder, folder) : undefined,
        kind ? eq(driveFiles.kind, kind) : undefined,
      );
      const [rows, [{ total }]] = await Promise.all([
        selectRows()
          .where(where)
          .orderBy(desc(driveFiles.createdAt), desc(driveFiles.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ total: count() }).from(driveFiles).where(where),
      ]);
      return { payload: (rows as Row[]).map(out), totalDocs: total, totalPages: totalPagesOf(total, limit), page, limit };
    },
  );

  app.get('/drive/folders', { config: { permission: { module: 'messaging', action: 'list' } }, schema: { tags, response: { 200: driveFoldersOut } } }, async (request) => {
    const { companyId } = tenantOf(request);
    const rows = await db
      .select({ name: driveFiles.folder, files: count() })
      .from(driveFiles)
      .where(eq(driveFiles.companyId, companyId))
      .groupBy(driveFiles.folder)
      .orderBy(asc(driveFiles.folder));
    return { payload: rows };
  });

  app.patch(
    '/drive/files/:id',
    {
      config: { permission: { module: 'messaging', action: 'update' } },
      schema: { tags, params: driveIdParams, body: driveFilePatch, response: { 200: driveFileOut } },
    },
    async (request) => {
      const { companyId } = tenantOf(request);
      const current = await fileById(companyId, request.params.id);
      if (!current) throw new AppError('NOT_FOUND', 'El archivo no existe en el Drive de esta compañía');
      const { name, folder } = request.body;
      // a new name without an extension keeps the file's own (WhatsApp shows it on documents)
      const ext = current.name.includes('.') ? current.name.slice(current.name.lastIndexOf('.')) : '';
      const newName = name !== undefined && !/\.[A-Za-z0-9]{1,5}$/.test(name) ? `${name}${ext}` : name;
      await db
        .update(driveFiles)
        .set({ ...(newName !== undefined ? { name: newName } : {}), ...(folder !== undefined ? { folder } : {}) })
        .where(and(eq(driveFiles.companyId, companyId), eq(driveFiles.id, request.params.id)));
      return out((await fileById(companyId, request.params.id)) as Row);
    },
  );

  app.delete(
    '/drive/files/:id',
    { config: { permission: { module: 'messaging', action: 'delete' } }, schema: { tags, params: driveIdParams, response: { 200: z.object({ msg: z.string() }) } } },
    async (request) => {
      const { companyId } = tenantOf(request);
      const [gone] = await db
        .delete(driveFiles)
        .where(and(eq(driveFiles.companyId, companyId), eq(driveFiles.id, request.params.id)))
        .returning({ name: driveFiles.name, sha256: driveFiles.sha256 });
      if (!gone) throw new AppError('NOT_FOUND', 'El archivo no existe en el Drive de esta compañía');
      // the bytes go once no file of the company uses them (an upload of the same bytes waits on the lock)
      await db.transaction(async (tx) => {
        await lockBytes(tx as unknown as Db, companyId, gone.sha256);
        const [used] = await tx.select({ id: driveFiles.id }).from(driveFiles).where(and(eq(driveFiles.companyId, companyId), eq(driveFiles.sha256, gone.sha256))).limit(1);
        if (!used) await storage.remove(companyId, gone.sha256);
      });
      return { msg: `«${gone.name}» eliminado de Drive: su enlace deja de funcionar` };
    },
  );

  // ---- the public address -----------------------------------------------------------------------
  app.get('/drive/files/:id/:name', { config: { public: true }, schema: { tags, params: drivePublicParams } }, async (request, reply) => {
    const [file] = await db
      .select({ companyId: driveFiles.companyId, name: driveFiles.name, mimeType: driveFiles.mimeType, size: driveFiles.size, sha256: driveFiles.sha256 })
      .from(driveFiles)
      .where(eq(driveFiles.id, request.params.id));
    if (!file || file.name !== request.params.name) throw new AppError('NOT_FOUND', 'El archivo no existe');
    const etag = `"${file.sha256}"`;
    reply
      .header('content-type', file.mimeType.startsWith('text/') ? `${file.mimeType}; charset=utf-8` : file.mimeType)
      .header('cache-control', DRIVE_CACHE_CONTROL)
      .header('x-content-type-options', 'nosniff')
      // the public address is for anyone to fetch and show: WhatsApp, Messenger, a page that links it (decision 0063)
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('content-disposition', inlineDisposition(file.name))
      .header('accept-ranges', 'bytes')
      .header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    // a HEAD asks the storage whether the bytes are there, without reading them (Fastify drains a body it drops)
    const bytesOf = async (range?: { start: number; end: number }) => {
      const body = request.method === 'HEAD' ? ((await storage.exists(file.companyId, file.sha256)) ? Readable.from([]) : undefined) : await storage.read(file.companyId, file.sha256, range);
      if (!body) throw new AppError('NOT_FOUND', 'El archivo no existe');
      return body;
    };
    const range = /^bytes=(\d*)-(\d*)$/.exec(String(request.headers.range ?? '').trim());
    if (range && (range[1] || range[2])) {
      let start = range[1] ? Number(range[1]) : Math.max(0, file.size - Number(range[2]));
      let end = range[1] && range[2] ? Math.min(Number(range[2]), file.size - 1) : file.size - 1;
      if (!range[1]) end = file.size - 1;
      if (start > end || start >= file.size) {
        for (const name of ['content-type', 'content-disposition', 'etag', 'cache-control']) reply.removeHeader(name);
        return reply.status(416).header('content-range', `bytes */${file.size}`).type('application/json; charset=utf-8').send({ errors: { code: 'BAD_REQUEST', msg: 'El rango pedido está fuera del archivo' } });
      }
      start = Math.max(0, start);
      const part = await bytesOf({ start, end });
      return reply
        .status(206)
        .header('content-range', `bytes ${start}-${end}/${file.size}`)
        .header('content-length', end - start + 1)
        .send(part);
    }
    const bytes = await bytesOf();
    reply.header('content-length', file.size);
    return reply.send(bytes);
  });
};
