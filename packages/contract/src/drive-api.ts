import { z } from 'zod';
import { LIST_MAX_LIMIT, pageOf } from './list-query.js';

/**
 * Drive, the company's media library (issue 15, decision 0056):
 *
 *   POST   /drive/files?name=…&folder=…   the file's bytes as the body (any content type) → DriveUploadOut
 *   GET    /drive/files?filter=&folder=&kind=&page=&limit=  → Page<DriveFileOut>, newest first
 *   GET    /drive/folders                 → DriveFoldersOut (each folder and how many files)
 *   PATCH  /drive/files/{id}              {name?, folder?} → DriveFileOut (rename, move)
 *   DELETE /drive/files/{id}              → {msg}; the bytes go once no file uses them
 *   GET    /drive/files/{id}/{name}       public: the bytes (what WhatsApp, Messenger and Telegram fetch)
 */

/** WhatsApp's kinds of media, and the file kinds Drive keeps. */
export const driveKinds = ['image', 'video', 'audio', 'document'] as const;
export type DriveKind = (typeof driveKinds)[number];
export const driveKindLabels: Record<DriveKind, string> = { image: 'Imagen', video: 'Video', audio: 'Audio', document: 'Documento' };

/** WhatsApp's media limits (Cloud API): what Drive accepts for each kind. */
export const driveLimits: Record<DriveKind, number> = {
  image: 5 * 1024 * 1024,
  video: 16 * 1024 * 1024,
  audio: 16 * 1024 * 1024,
  document: 100 * 1024 * 1024,
};
/** The largest upload of any kind. */
export const DRIVE_MAX_BYTES = driveLimits.document;

const limitNoun: Record<DriveKind, string> = { image: 'imágenes', video: 'videos', audio: 'audios', document: 'documentos' };
/** «El archivo supera 5 MB, el límite de WhatsApp para imágenes». */
export const driveTooLarge = (kind: DriveKind) => `El archivo supera ${driveLimits[kind] / 1024 / 1024} MB, el límite de WhatsApp para ${limitNoun[kind]}`;
export const DRIVE_UNSUPPORTED = 'Tipo de archivo no admitido: sube imágenes (JPG, PNG, WebP, GIF), videos (MP4, 3GP), audios (MP3, OGG, AAC, M4A, AMR) o documentos (PDF, texto, CSV, Word, Excel)';

export const DRIVE_NAME_MAX = 200;
export const DRIVE_FOLDER_MAX = 80;
/** A file's name as shown and served: no slashes or control characters. */
export const zDriveName = () =>
  z
    .string({ error: 'Escribe el nombre del archivo' })
    .trim()
    .min(1, 'Escribe el nombre del archivo')
    .max(DRIVE_NAME_MAX, `El nombre admite hasta ${DRIVE_NAME_MAX} caracteres`)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    .regex(/^[^/\\\u0000-\u001f\u007f]+$/, 'El nombre no puede llevar barras ni caracteres de control');
/** A folder: one level, a name; '' is the root («Sin carpeta»). */
export const zDriveFolder = () =>
  z
    .string({ error: 'La carpeta debe ser un texto' })
    .trim()
    .max(DRIVE_FOLDER_MAX, `La carpeta admite hasta ${DRIVE_FOLDER_MAX} caracteres`)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    .regex(/^[^/\\\u0000-\u001f\u007f]*$/, 'La carpeta no puede llevar barras ni caracteres de control');

/** The upload's query: the file's name (the body carries only its bytes) and its folder. */
export const driveUploadQuery = z.object({ name: zDriveName(), folder: zDriveFolder().optional() }).strict();

/** A file id: random and unguessable, since it is the secret of its public address. */
export const zDriveId = () => z.string({ error: 'El archivo no existe' }).regex(/^[A-Za-z0-9_-]{16,64}$/, 'El archivo no existe');
export const driveIdParams = z.object({ id: zDriveId() }).strict();
export const drivePublicParams = z.object({ id: zDriveId(), name: z.string().max(1000, 'El archivo no existe') }).strict();

export const driveListQuery = z
  .object({
    page: z.coerce.number({ error: 'La página debe ser un número' }).int('La página debe ser un entero').min(1, 'La página empieza en 1').default(1),
    limit: z.coerce
      .number({ error: 'El límite debe ser un número' })
      .int('El límite debe ser un entero')
      .min(1, 'El límite mínimo es 1')
      .max(LIST_MAX_LIMIT, `El límite máximo es ${LIST_MAX_LIMIT}`)
      .default(24),
    filter: z.string().trim().max(200, 'La búsqueda es demasiado larga').optional(),
    folder: zDriveFolder().optional(),
    kind: z.enum(driveKinds, { error: 'Elige un tipo de archivo: imagen, video, audio o documento' }).optional(),
  })
  .strict();
export type DriveListQuery = z.input<typeof driveListQuery>;

export const driveFilePatch = z
  .object({ name: zDriveName().optional(), folder: zDriveFolder().optional() })
  .strict()
  .refine((v) => v.name !== undefined || v.folder !== undefined, { error: 'Cambia el nombre o la carpeta' });

export const driveFileOut = z.object({
  _id: z.string(),
  name: z.string(),
  folder: z.string(),
  mimeType: z.string(),
  kind: z.enum(driveKinds),
  size: z.number().int(),
  sha256: z.string(),
  /** The public address's path under this server: /api/drive/files/{id}/{name}. */
  path: z.string(),
  /** The full public address (PUBLIC_URL + path): what a message sends. */
  url: z.string(),
  uploadedBy: z.object({ _id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
});
export type DriveFileOut = z.infer<typeof driveFileOut>;
export const driveFilesPage = pageOf(driveFileOut);

export const driveUploadOut = z.object({
  file: driveFileOut,
  /** The same bytes were already in the company's Drive: that file is answered, nothing new kept. */
  duplicate: z.boolean(),
  msg: z.string(),
});
export type DriveUploadOut = z.infer<typeof driveUploadOut>;

export const driveFoldersOut = z.object({ payload: z.array(z.object({ name: z.string(), files: z.number().int() })) });
export type DriveFoldersOut = z.infer<typeof driveFoldersOut>;

/** The folders the demo and the screen suggest. */
export const driveSuggestedFolders = ['Productos', 'Catálogos', 'Precios'] as const;

/** The public path of a file: its id, then its name (encoded). */
export const drivePath = (id: string, name: string) => `/api/drive/files/${id}/${encodeURIComponent(name)}`;

/** «1,2 MB». */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toLocaleString('es', { maximumFractionDigits: value < 10 ? 1 : 0 })} ${units[unit]}`;
}
