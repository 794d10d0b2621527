import { imageSrc } from '../../../lib/image-src';
/**
 * Media links (SPEC §5): a link is classified by its extension, and YouTube links are
 * recognised and turned into an embed address. Pure functions, no DOM.
 */
export type MediaKind = 'image' | 'video' | 'audio' | 'document';
/** What a link shows as: a media kind, or a YouTube video. */
export type LinkKind = MediaKind | 'youtube';

/**
 * SPEC §5's extension lists. `ogg` is in both the video and the audio list: in a chat it is
 * nearly always a voice note (WhatsApp sends them as .ogg/opus), so it plays as audio.
 */
const extensionKinds: Readonly<Record<string, MediaKind>> = {
  jpg: 'image',
  jpeg: 'image',
  png: 'image',
  gif: 'image',
  svg: 'image',
  webp: 'image',
  mp4: 'video',
  webm: 'video',
  ogg: 'audio',
  mp3: 'audio',
  wav: 'audio',
  pdf: 'document',
  doc: 'document',
  docx: 'document',
  xls: 'document',
  xlsx: 'document',
  ppt: 'document',
  pptx: 'document',
  txt: 'document',
  csv: 'document',
};

/** The path of a link without query and fragment (also for text that is not a full URL). */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.split(/[?#]/)[0] ?? '';
  }
}

/** The last path segment, decoded: `https://x.pe/docs/Lista%20de%20precios.pdf` → `Lista de precios.pdf`. */
export function fileNameOf(url: string): string {
  const segment = pathOf(url).split('/').filter(Boolean).pop() ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The lower-case extension of a link's file, without the dot ('' when it has none). */
export function extensionOf(url: string): string {
  const name = fileNameOf(url);
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com', 'youtube-nocookie.com', 'www.youtube-nocookie.com']);

/** `t=90`, `t=90s`, `t=1m30s`, `start=90` → seconds. */
function startSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+s?$/.test(value)) return Number.parseInt(value, 10) || undefined;
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(value);
  if (!match?.[0]) return undefined;
  const seconds = Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
  return seconds || undefined;
}

/** The video id of a YouTube link (watch?v=, youtu.be/, shorts/, embed/, live/), else undefined. */
export function youtubeIdOf(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  const host = parsed.hostname.toLowerCase();
  const segments = parsed.pathname.split('/').filter(Boolean);
  let id: string | undefined;
  if (host === 'youtu.be' || host === 'www.youtu.be') id = segments[0];
  else if (YOUTUBE_HOSTS.has(host)) {
    if (segments[0] === 'watch') id = parsed.searchParams.get('v') ?? undefined;
    else if (['shorts', 'embed', 'live', 'v'].includes(segments[0] ?? '')) id = segments[1];
  }
  return id && YOUTUBE_ID.test(id) ? id : undefined;
}

/**
 * The embed address of a YouTube link, keeping its start time:
 * `https://youtu.be/dQw4w9WgXcQ?t=42` → `https://www.youtube.com/embed/dQw4w9WgXcQ?start=42`.
 * Undefined when the link is not a YouTube video.
 */
export function youtubeEmbedUrl(url: string): string | undefined {
  const id = youtubeIdOf(url);
  if (!id) return undefined;
  const params = new URL(url.trim()).searchParams;
  const start = startSeconds(params.get('t') ?? params.get('start'));
  return `https://www.youtube.com/embed/${id}${start ? `?start=${start}` : ''}`;
}

/** What a link is by SPEC §5: a YouTube video, or a media kind by its extension; undefined for any other link. */
export function classifyMediaUrl(url: string): LinkKind | undefined {
  if (!url) return undefined;
  if (youtubeIdOf(url)) return 'youtube';
  return extensionKinds[extensionOf(url)];
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"']+/gi;

/** The YouTube links written in a message's text, as embed addresses (at most `max`, no repeats). */
export function youtubeEmbedsIn(text: string | undefined, max = 3): string[] {
  if (!text) return [];
  const embeds: string[] = [];
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const embed = youtubeEmbedUrl(match[0].replace(/[.,;:!?)\]]+$/, ''));
    if (embed && !embeds.includes(embed)) embeds.push(embed);
    if (embeds.length >= max) break;
  }
  return embeds;
}

/** A link the page may put in src/href: http(s) or a blob the page made; anything else (javascript:, data:) is dropped. */
export function safeMediaUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const { protocol } = new URL(url);
    // the demo's pictures are drawn by this server: shown from this page's own origin, whatever host the seed wrote
    return protocol === 'https:' || protocol === 'http:' || protocol === 'blob:' ? (imageSrc(url) ?? url) : undefined;
  } catch {
    return undefined;
  }
}
