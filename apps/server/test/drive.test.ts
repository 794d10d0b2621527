import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { DriveFileOut, DriveFoldersOut, DriveUploadOut, Page } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sniff } from '../src/modules/drive/sniff.js';
import { demoDriveFiles } from '../src/seed/assets/demo-drive.js';
import { as, demo, login, type Signed, startTestApp, type TestApp } from './helpers.js';

/**
 * Drive, the company's media library (issue 15, decision 0056): uploads kept on disk under the
 * company and the bytes' hash, the type read from the bytes (a lying name or content type does
 * not matter), WhatsApp's limits per kind, the same bytes kept once, a refused upload leaving no
 * row and no file, rename, move and delete, the public address (headers, HEAD, ranges, 404 once
 * deleted or with another name) and each company seeing and touching only its own files.
 */
let t: TestApp;
let admin: Signed;
let agent: Signed;
let acme: Signed;
let peru: string;
let acmeCo: string;
let dataDir: string;

/** A PNG header then random bytes: a unique file the sniffing calls an image. */
const png = (extra = 64) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(extra)]);
const pdf = () => Buffer.from(`%PDF-1.4\n% ${randomBytes(8).toString('hex')}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);

const upload = (bytes: Buffer, name: string, opts: { folder?: string; who?: Signed; company?: string; type?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/drive/files?name=${encodeURIComponent(name)}${opts.folder !== undefined ? `&folder=${encodeURIComponent(opts.folder)}` : ''}`,
    headers: { ...as(opts.who ?? admin, opts.company ?? peru), 'content-type': opts.type ?? 'application/octet-stream' },
    payload: bytes,
  });
const call = (method: 'GET' | 'PATCH' | 'DELETE', url: string, payload?: object, who: Signed = admin, company = peru) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(who, company), payload });
const list = async (query = '', who = admin, company = peru) => (await call('GET', `/drive/files${query}`, undefined, who, company)).json() as Page<DriveFileOut>;
const rowsOf = (companyId: string) => t.sql<{ id: string; name: string; folder: string }>('select id, name, folder from drive_files where company_id = $1 order by id', [companyId]);
const bytesOf = (companyId: string, sha256: string) => path.join(dataDir, 'drive', companyId, sha256);
const staging = () => (existsSync(path.join(dataDir, 'drive', '.staging')) ? readdirSync(path.join(dataDir, 'drive', '.staging')) : []);

beforeAll(async () => {
  t = await startTestApp();
  dataDir = t.app.settings.dataDir;
  [admin, agent, acme] = await Promise.all([login(t, demo.admin), login(t, demo.agent), login(t, demo.acme)]);
  peru = admin.company('Demo Perú');
  acmeCo = acme.company('Acme');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('uploading', () => {
  it('keeps the file on disk under the company and its hash, typed from its bytes, with who uploaded it', async () => {
    const bytes = png(2000);
    const res = await upload(bytes, 'Zapatilla roja.png', { folder: 'Productos', type: 'image/png' });
    expect(res.statusCode, res.body).toBe(201);
    const { file, duplicate, msg } = res.json() as DriveUploadOut;
    expect(duplicate).toBe(false);
    expect(msg).toContain('«Zapatilla roja.png» subido a Drive');
    expect(file).toMatchObject({ name: 'Zapatilla roja.png', folder: 'Productos', mimeType: 'image/png', kind: 'image', size: bytes.length });
    expect(file._id).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(file.path).toBe(`/api/drive/files/${file._id}/Zapatilla%20roja.png`);
    expect(file.url).toBe(`${t.app.settings.publicUrl}${file.path}`);
    expect(file.uploadedBy?.name).toBeTruthy();
    expect(existsSync(bytesOf(peru, file.sha256))).toBe(true);
    const listed = await list(`?filter=${encodeURIComponent('zapatilla roja')}`);
    expect(listed.payload.map((f) => f._id)).toEqual([file._id]);
  });

  it('keeps the same bytes once and answers the file already there', async () => {
    const bytes = png();
    const first = (await upload(bytes, 'logo.png', { folder: 'Catálogos' })).json() as DriveUploadOut;
    const before = (await rowsOf(peru)).length;
    const again = await upload(bytes, 'logo-copia.png');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ duplicate: true, file: { _id: first.file._id, name: 'logo.png', folder: 'Catálogos' } });
    expect(again.json().msg).toBe('Este archivo ya estaba en Drive como «logo.png» en la carpeta «Catálogos»: no se guardó otra copia');
    expect((await rowsOf(peru)).length).toBe(before);
    expect(staging()).toEqual([]);
  });

  it('believes the bytes, not the name or the content type', async () => {
    const image = await upload(png(), 'lista.pdf', { type: 'application/pdf' });
    expect(image.statusCode).toBe(201);
    expect(image.json().file).toMatchObject({ name: 'lista.png', mimeType: 'image/png', kind: 'image' });
    expect(image.json().msg).toContain('se guardó como «lista.png»');
    const document = await upload(pdf(), 'precios.jpg', { type: 'image/jpeg' });
    expect(document.json().file).toMatchObject({ name: 'precios.pdf', mimeType: 'application/pdf', kind: 'document' });
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), randomBytes(100)]);
    expect((await upload(mp4, 'video.mov')).json().file).toMatchObject({ name: 'video.mp4', mimeType: 'video/mp4', kind: 'video' });
    const voice = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(24), Buffer.from('OpusHead'), randomBytes(40)]);
    expect((await upload(voice, 'nota de voz')).json().file).toMatchObject({ name: 'nota de voz.opus', mimeType: 'audio/ogg', kind: 'audio' });
    const csv = Buffer.from(`producto;precio\nZapatilla;${randomBytes(4).readUInt32BE()}\n`);
    expect((await upload(csv, 'precios.csv', { type: 'application/vnd.ms-excel' })).json().file).toMatchObject({ name: 'precios.csv', mimeType: 'text/csv', kind: 'document' });
  });

  it('refuses what WhatsApp would not send, in Spanish, keeping no row and no file', async () => {
    const before = await rowsOf(peru);
    const tooBig = await upload(png(5 * 1024 * 1024), 'grande.png');
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().errors.msg).toBe('El archivo supera 5 MB, el límite de WhatsApp para imágenes');
    const video = await upload(Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(16 * 1024 * 1024)]), 'largo.mp4');
    expect(video.statusCode).toBe(413);
    expect(video.json().errors.msg).toBe('El archivo supera 16 MB, el límite de WhatsApp para videos');
    const program = await upload(Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), randomBytes(200)]), 'foto.jpg', { type: 'image/jpeg' });
    expect(program.statusCode).toBe(400);
    expect(program.json().errors.msg).toMatch(/^Tipo de archivo no admitido/);
    const zip = await upload(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('carpeta/archivo.exe'), randomBytes(50)]), 'documento.docx');
    expect(zip.statusCode).toBe(400);
    const empty = await upload(Buffer.alloc(0), 'vacio.txt');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.msg).toBe('El archivo está vacío');
    const badName = await upload(png(), '../../etc/passwd');
    expect(badName.statusCode).toBe(400);
    expect(badName.json().errors.msg).toContain('barras');
    expect(await rowsOf(peru)).toEqual(before);
    expect(staging()).toEqual([]);
    expect(readdirSync(path.join(dataDir, 'drive', peru)).length).toBe(before.length);
  });

  it('lets an agent pick files but not upload them', async () => {
    expect((await call('GET', '/drive/files', undefined, agent)).statusCode).toBe(200);
    const refused = await upload(png(), 'agente.png', { who: agent });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().errors.msg).toMatch(/permiso/i);
  });
});

describe('the library', () => {
  it('renames and moves a file, lists its folders and filters by folder, name and kind', async () => {
    const { file } = (await upload(pdf(), 'Catálogo invierno.pdf')).json() as DriveUploadOut;
    const renamed = await call('PATCH', `/drive/files/${file._id}`, { name: 'Catálogo 2026', folder: 'Catálogos' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Catálogo 2026.pdf', folder: 'Catálogos', path: `/api/drive/files/${file._id}/Cat%C3%A1logo%202026.pdf` });
    const folders = (await call('GET', '/drive/folders')).json() as DriveFoldersOut;
    expect(folders.payload.find((f) => f.name === 'Catálogos')?.files).toBeGreaterThanOrEqual(2);
    const inFolder = await list(`?folder=${encodeURIComponent('Catálogos')}&kind=document`);
    expect(inFolder.payload.map((f) => f.name)).toContain('Catálogo 2026.pdf');
    expect(inFolder.payload.every((f) => f.folder === 'Catálogos' && f.kind === 'document')).toBe(true);
    const newest = await list('?limit=2');
    expect(newest.payload[0]._id).toBe(file._id);
    expect(newest.totalPages).toBe(Math.ceil(newest.totalDocs / 2));
    for (const [body, msg] of [
      [{ name: 'a/b.pdf' }, 'barras'],
      [{}, 'Cambia el nombre o la carpeta'],
      [{ folder: 'x'.repeat(81) }, '80'],
    ] as const) {
      const res = await call('PATCH', `/drive/files/${file._id}`, body);
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json().errors)).toContain(msg);
    }
  });

  it('serves a file at its public address to anyone who has it, with its type, size and name', async () => {
    const bytes = png(300);
    const { file } = (await upload(bytes, 'Oferta día.png')).json() as DriveUploadOut;
    const res = await t.app.inject({ method: 'GET', url: file.path });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(bytes.length),
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=60',
      'accept-ranges': 'bytes',
    });
    expect(res.headers['content-disposition']).toBe(`inline; filename="Oferta d_a.png"; filename*=UTF-8''Oferta%20d%C3%ADa.png`);
    const head = await t.app.inject({ method: 'HEAD', url: file.path });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(bytes.length));
    expect(head.rawPayload.length).toBe(0);
    const part = await t.app.inject({ method: 'GET', url: file.path, headers: { range: 'bytes=0-7' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-7/${bytes.length}`);
    expect(part.rawPayload.equals(bytes.subarray(0, 8))).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: file.path, headers: { range: `bytes=${bytes.length + 5}-` } })).statusCode).toBe(416);
    expect((await t.app.inject({ method: 'GET', url: file.path, headers: { 'if-none-match': `"${file.sha256}"` } })).statusCode).toBe(304);
    const wrongName = await t.app.inject({ method: 'GET', url: `/api/drive/files/${file._id}/otra.png` });
    expect(wrongName.statusCode).toBe(404);
    expect(wrongName.json().errors.msg).toBe('El archivo no existe');
    expect((await t.app.inject({ method: 'GET', url: `/api/drive/files/${randomBytes(18).toString('base64url')}/Oferta%20d%C3%ADa.png` })).statusCode).toBe(404);
  });

  it('deletes a file: its address answers 404 at once and its bytes leave the disk', async () => {
    const { file } = (await upload(png(), 'borrar.png')).json() as DriveUploadOut;
    expect((await t.app.inject({ method: 'GET', url: file.path })).statusCode).toBe(200);
    const gone = await call('DELETE', `/drive/files/${file._id}`);
    expect(gone.statusCode).toBe(200);
    expect(gone.json().msg).toBe('«borrar.png» eliminado de Drive: su enlace deja de funcionar');
    expect((await t.app.inject({ method: 'GET', url: file.path })).statusCode).toBe(404);
    expect(existsSync(bytesOf(peru, file.sha256))).toBe(false);
    expect((await list()).payload.some((f) => f._id === file._id)).toBe(false);
    expect((await call('DELETE', `/drive/files/${file._id}`)).statusCode).toBe(404);
  });
});

describe('tenancy', () => {
  it("another company neither sees nor touches a company's files, and keeps its own copy of the same bytes", async () => {
    const bytes = png();
    const { file } = (await upload(bytes, 'privada.png', { folder: 'Productos' })).json() as DriveUploadOut;
    expect((await list('', acme, acmeCo)).payload.some((f) => f._id === file._id)).toBe(false);
    expect((await call('GET', '/drive/folders', undefined, acme, acmeCo)).json().payload.some((f: { name: string }) => f.name === 'Productos')).toBe(false);
    const rename = await call('PATCH', `/drive/files/${file._id}`, { name: 'robada.png' }, acme, acmeCo);
    expect(rename.statusCode).toBe(404);
    expect((await call('DELETE', `/drive/files/${file._id}`, undefined, acme, acmeCo)).statusCode).toBe(404);
    expect((await rowsOf(peru)).find((r) => r.id === file._id)).toMatchObject({ name: 'privada.png', folder: 'Productos' });
    const theirs = await upload(bytes, 'suya.png', { who: acme, company: acmeCo });
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().duplicate).toBe(false);
    expect(theirs.json().file._id).not.toBe(file._id);
    // deleting theirs leaves ours served
    await call('DELETE', `/drive/files/${theirs.json().file._id}`, undefined, acme, acmeCo);
    expect((await t.app.inject({ method: 'GET', url: file.path })).statusCode).toBe(200);
  });
});

describe("the demo's Drive", () => {
  it('has the products, catalogues and price lists in their folders, served from this server', async () => {
    const folders = ((await call('GET', '/drive/folders')).json() as DriveFoldersOut).payload;
    const products = demoDriveFiles().filter((f) => f.folder === 'Productos').length;
    expect(folders.find((f) => f.name === 'Productos')?.files).toBeGreaterThanOrEqual(products);
    expect(folders.find((f) => f.name === 'Catálogos')?.files).toBeGreaterThanOrEqual(2);
    expect(folders.find((f) => f.name === 'Precios')?.files).toBeGreaterThanOrEqual(2);
    const [prices] = (await list(`?filter=${encodeURIComponent('Lista de precios noviembre')}`)).payload;
    expect(prices).toMatchObject({ mimeType: 'application/pdf', kind: 'document', folder: 'Precios', uploadedBy: { name: 'Ana Administradora' } });
    const served = await t.app.inject({ method: 'GET', url: prices.path });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const [photo] = (await list(`?folder=Productos&filter=${encodeURIComponent('Inca Kola')}`)).payload;
    expect((await t.app.inject({ method: 'GET', url: photo.path })).headers['content-type']).toBe('image/png');
    // Demo Chile has the packshots; each demo file is what its bytes say it is
    const chile = admin.company('Demo Chile');
    expect((await list('?folder=Productos', admin, chile)).totalDocs).toBe(products);
    for (const f of demoDriveFiles()) expect({ name: f.name, mime: sniff(f.bytes.subarray(0, 65536), f.name)?.mimeType }).toEqual({ name: f.name, mime: f.mimeType });
  });
});


describe('a deleted company', () => {
  it('takes its Drive files with it: rows, bytes and public addresses', async () => {
    const chile = admin.company('Demo Chile');
    const { file } = (await upload(png(), 'chile.png', { company: chile })).json() as DriveUploadOut;
    expect(existsSync(bytesOf(chile, file.sha256))).toBe(true);
    const gone = await call('DELETE', `/companies/${chile}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await rowsOf(chile)).toEqual([]);
    expect(existsSync(path.join(dataDir, 'drive', chile))).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: file.path })).statusCode).toBe(404);
    // the company worked in keeps its own
    expect((await list()).totalDocs).toBeGreaterThan(0);
  });
});
