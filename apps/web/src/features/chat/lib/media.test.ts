import { describe, expect, it } from 'vitest';
import { classifyMediaUrl, extensionOf, fileNameOf, safeMediaUrl, youtubeEmbedsIn, youtubeEmbedUrl, youtubeIdOf } from './media';

describe('classifyMediaUrl (SPEC §5)', () => {
  it.each([
    ['https://cdn.tienda.pe/fotos/producto.jpg', 'image'],
    ['https://cdn.tienda.pe/fotos/producto.JPEG', 'image'],
    ['https://cdn.tienda.pe/a.png?width=300#x', 'image'],
    ['https://cdn.tienda.pe/a.gif', 'image'],
    ['https://cdn.tienda.pe/logo.svg', 'image'],
    ['https://cdn.tienda.pe/a.webp', 'image'],
    ['https://cdn.tienda.pe/video.mp4', 'video'],
    ['https://cdn.tienda.pe/video.webm', 'video'],
    ['https://cdn.tienda.pe/nota-de-voz.ogg', 'audio'],
    ['https://cdn.tienda.pe/cancion.mp3', 'audio'],
    ['https://cdn.tienda.pe/audio.wav', 'audio'],
    ['https://cdn.tienda.pe/lista.pdf', 'document'],
    ['https://cdn.tienda.pe/a.doc', 'document'],
    ['https://cdn.tienda.pe/a.docx', 'document'],
    ['https://cdn.tienda.pe/a.xls', 'document'],
    ['https://cdn.tienda.pe/a.xlsx', 'document'],
    ['https://cdn.tienda.pe/a.ppt', 'document'],
    ['https://cdn.tienda.pe/a.pptx', 'document'],
    ['https://cdn.tienda.pe/a.txt', 'document'],
    ['https://cdn.tienda.pe/precios.csv?dl=1', 'document'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'youtube'],
    ['https://youtu.be/dQw4w9WgXcQ', 'youtube'],
  ])('%s → %s', (url, kind) => {
    expect(classifyMediaUrl(url)).toBe(kind);
  });

  it('answers undefined for links without a known extension', () => {
    expect(classifyMediaUrl('https://tienda.pe/productos/123')).toBeUndefined();
    expect(classifyMediaUrl('https://tienda.pe/archivo.exe')).toBeUndefined();
    expect(classifyMediaUrl('https://tienda.pe/jpg')).toBeUndefined();
    expect(classifyMediaUrl('')).toBeUndefined();
  });

  it('reads the extension from the path only, not the query', () => {
    expect(classifyMediaUrl('https://tienda.pe/ver?file=foto.png')).toBeUndefined();
    expect(extensionOf('https://tienda.pe/a/b/Lista%20de%20precios.PDF?x=1')).toBe('pdf');
    expect(fileNameOf('https://tienda.pe/a/b/Lista%20de%20precios.PDF?x=1')).toBe('Lista de precios.PDF');
  });
});

describe('youtubeEmbedUrl', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://youtube.com/watch?v=dQw4w9WgXcQ&list=PL123', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?t=42', 'https://www.youtube.com/embed/dQw4w9WgXcQ?start=42'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1m30s', 'https://www.youtube.com/embed/dQw4w9WgXcQ?start=90'],
    ['https://www.youtube.com/shorts/abcDEF12345', 'https://www.youtube.com/embed/abcDEF12345'],
    ['https://youtube.com/shorts/abcDEF12345?feature=share', 'https://www.youtube.com/embed/abcDEF12345'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
  ])('%s → %s', (url, embed) => {
    expect(youtubeEmbedUrl(url)).toBe(embed);
  });

  it('does not take other sites or malformed ids for YouTube', () => {
    expect(youtubeEmbedUrl('https://vimeo.com/12345')).toBeUndefined();
    expect(youtubeEmbedUrl('https://notyoutube.com/watch?v=dQw4w9WgXcQ')).toBeUndefined();
    expect(youtubeEmbedUrl('https://www.youtube.com/watch?v=short')).toBeUndefined();
    expect(youtubeEmbedUrl('https://www.youtube.com/channel/UC123')).toBeUndefined();
    expect(youtubeEmbedUrl('javascript:alert(1)//youtu.be/dQw4w9WgXcQ')).toBeUndefined();
    expect(youtubeIdOf('no es un enlace')).toBeUndefined();
  });

  it('finds YouTube links inside a text, each once', () => {
    const text = 'Mira este video: https://youtu.be/dQw4w9WgXcQ, y este https://www.youtube.com/watch?v=dQw4w9WgXcQ. También https://tienda.pe';
    expect(youtubeEmbedsIn(text)).toEqual(['https://www.youtube.com/embed/dQw4w9WgXcQ']);
    expect(youtubeEmbedsIn(undefined)).toEqual([]);
  });
});

describe('safeMediaUrl', () => {
  it('keeps http(s) and blob links and drops the rest', () => {
    expect(safeMediaUrl('https://cdn.tienda.pe/a.jpg')).toBe('https://cdn.tienda.pe/a.jpg');
    expect(safeMediaUrl('blob:http://localhost/123')).toBe('blob:http://localhost/123');
    expect(safeMediaUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeMediaUrl('data:text/html,<script>alert(1)</script>')).toBeUndefined();
    expect(safeMediaUrl('/relativo.jpg')).toBeUndefined();
  });
});
