import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { driveFiles } from '../../db/drive-tables.js';
import type { OutboundContent, TemplatePayload } from '../../integrations/meta/send.js';
import type { DriveStorage, StorageLog } from './storage.js';

/** How long one signed link is handed out again (a campaign's header, a retried send) before a new one. */
const REUSE_MS = 60_000;
const CACHE_ENTRIES = 1000;

/**
 * The links providers download a message's media from (decision 0105). A message keeps the
 * file's stable public address (`{PUBLIC_URL}/api/drive/files/{id}/{name}`, what the chat shows
 * and what a person copies); with Drive on S3, what goes to WhatsApp, Messenger or Instagram at the
 * moment of sending is a presigned GetObject link of the same bytes, valid S3_SIGNED_URL_SECONDS,
 * with the file's type and name, so the provider fetches from the bucket and not through the
 * server. Any other link (a file of another company, an outside address, a renamed file's old
 * address) goes as it was; on the disk every link goes as it was.
 */
export function providerLinks(db: Db, storage: Pick<DriveStorage, 'signedUrl'>, publicUrl: string, log?: StorageLog) {
  const base = `${publicUrl}/api/drive/files/`;
  const cache = new Map<string, { link: string; name: string; until: number }>();

  /** The signed link and the file's name of one of the company's Drive addresses; undefined for any other link. */
  async function signed(companyId: string, url: string): Promise<{ link: string; name: string } | undefined> {
    if (!storage.signedUrl || !url.startsWith(base)) return undefined;
    const hit = cache.get(`${companyId} ${url}`);
    if (hit && hit.until > Date.now()) return hit;
    const [id, encoded, ...rest] = url.slice(base.length).split(/[?#]/)[0].split('/');
    if (!id || encoded === undefined || rest.length || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) return undefined;
    let name: string;
    try {
      name = decodeURIComponent(encoded);
    } catch {
      return undefined;
    }
    const [file] = await db
      .select({ name: driveFiles.name, mimeType: driveFiles.mimeType, sha256: driveFiles.sha256 })
      .from(driveFiles)
      .where(and(eq(driveFiles.companyId, companyId), eq(driveFiles.id, id)));
    // the public address answers only the file's current name: an old one is not signed either
    if (!file || file.name !== name) return undefined;
    const link = await storage.signedUrl(companyId, file.sha256, file);
    if (cache.size >= CACHE_ENTRIES) cache.clear();
    const entry = { link, name: file.name, until: Date.now() + REUSE_MS };
    cache.set(`${companyId} ${url}`, entry);
    return entry;
  }
  /** A failure to sign is no failure to send: the stable address still serves the bytes. */
  const trySign = (companyId: string, url: string) =>
    signed(companyId, url).catch((error: unknown) => {
      log?.warn({ err: error }, 'Drive: no se pudo firmar el enlace de un archivo; va su dirección pública');
      return undefined;
    });

  /** A template's media header (`{type:'image', image:{link}}`) with the signed link; a document keeps its name. */
  async function template(companyId: string, payload: TemplatePayload | undefined): Promise<TemplatePayload | undefined> {
    if (!payload?.components || !storage.signedUrl) return payload;
    const components = await Promise.all(
      payload.components.map(async (component) => {
        if (component.type !== 'header') return component;
        const parameters = await Promise.all(
          component.parameters.map(async (parameter) => {
            const kind = (parameter as { type?: string }).type ?? '';
            const media = (parameter as Record<string, unknown>)[kind] as { link?: unknown; filename?: string } | undefined;
            if (!media || typeof media.link !== 'string') return parameter;
            const found = await trySign(companyId, media.link);
            if (!found) return parameter;
            return { ...parameter, [kind]: { ...media, link: found.link, ...(kind === 'document' && !media.filename ? { filename: found.name } : {}) } };
          }),
        );
        return { ...component, parameters };
      }),
    );
    return { ...payload, components };
  }

  return {
    template,
    /** What goes to the provider for a message: its media link signed, with the file's name (a WhatsApp document shows it). */
    async content(companyId: string, content: OutboundContent): Promise<OutboundContent> {
      if (!storage.signedUrl) return content;
      const media = content.mediaUrl ? await trySign(companyId, content.mediaUrl) : undefined;
      const header = content.template ? await template(companyId, content.template) : undefined;
      if (!media && !header) return content;
      return { ...content, ...(media ? { mediaUrl: media.link, fileName: media.name } : {}), ...(header ? { template: header } : {}) };
    },
  };
}

export type ProviderLinks = ReturnType<typeof providerLinks>;
