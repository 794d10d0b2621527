import { type ErrorCode, refreshableCodes } from '@mostrador/contract';
import { API_BASE, ApiError, buildHeaders, NetworkError, type QueryValue, refreshSession } from './api-client';

/**
 * Files to and from the API with the session's headers (bearer token, X-Company-Id): a CSV
 * export read as a stream into a Blob, an upload with its progress. The JSON client
 * (api-client.ts) handles everything else; these share its headers and its token refresh.
 * Failures come back as ApiError / NetworkError with the server's Spanish message; the caller
 * shows them where the user is looking (a dialog), not in the snackbar.
 */

export interface Download {
  blob: Blob;
  /** From Content-Disposition, else the fallback. */
  filename: string;
}

function urlOf(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return `${API_BASE}${path}${text ? `?${text}` : ''}`;
}

async function errorOf(status: number, text: string): Promise<ApiError> {
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  const msg = (body as { errors?: { msg?: unknown } } | null)?.errors?.msg;
  return new ApiError(status, body, typeof msg === 'string' ? [msg] : [`HTTP ${status}`]);
}

/** A 401 the token refresh may cure (as the JSON client decides it). */
function isExpiredToken(status: number, text: string): boolean {
  if (status !== 401) return false;
  try {
    const code = (JSON.parse(text) as { errors?: { code?: ErrorCode } }).errors?.code;
    return !!code && (refreshableCodes.includes(code) || code === 'SESSION_REVOKED');
  } catch {
    return false;
  }
}

/** The filename of `attachment; filename="leads-2025-03-14.csv"`. */
function filenameOf(disposition: string | null, fallback: string): string {
  const match = disposition?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  return match ? decodeURIComponent(match[1]) : fallback;
}

/**
 * GET a file, reading it chunk by chunk (`onProgress` gets the bytes so far), so a large
 * export shows it is moving. No 60 s timeout: a million rows take longer; `signal` cancels.
 */
export async function downloadFile(
  path: string,
  { query, fallbackName, onProgress, signal }: { query?: Record<string, QueryValue>; fallbackName: string; onProgress?: (bytes: number) => void; signal?: AbortSignal },
): Promise<Download> {
  const attempt = async () => {
    try {
      const headers = buildHeaders({});
      headers.set('Accept', 'text/csv, application/json');
      return await fetch(urlOf(path, query), { headers, credentials: 'same-origin', signal });
    } catch (error) {
      throw new NetworkError(error, false);
    }
  };
  let response = await attempt();
  if (response.status === 401) {
    const text = await response.text();
    if (!isExpiredToken(401, text) || !(await refreshSession().catch(() => false))) throw await errorOf(401, text);
    response = await attempt();
  }
  if (!response.ok) throw await errorOf(response.status, await response.text());

  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  const filename = filenameOf(response.headers.get('content-disposition'), fallbackName);
  if (!response.body) return { blob: await response.blob(), filename };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    onProgress?.(bytes);
  }
  return { blob: new Blob(chunks as BlobPart[], { type }), filename };
}

/** Hands a Blob to the browser as a download. */
export function saveBlob({ blob, filename }: Download): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * POST a file as the request body (`Content-Type` of the file), reporting the share sent
 * (0–1) while it uploads: XMLHttpRequest, since fetch reports no upload progress. Answers the
 * server's JSON.
 */
export async function uploadFile<T>(
  path: string,
  file: Blob,
  { contentType, onProgress, signal }: { contentType: string; onProgress?: (sent: number) => void; signal?: AbortSignal },
): Promise<T> {
  const attempt = () =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${API_BASE}${path}`);
      buildHeaders({}).forEach((value, key) => {
        xhr.setRequestHeader(key, value);
      });
      xhr.setRequestHeader('Content-Type', contentType);
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
      };
      xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
      xhr.onerror = () => reject(new NetworkError(new Error('upload failed'), false));
      xhr.onabort = () => reject(new NetworkError(new Error('upload aborted'), false));
      signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(file);
    });
  let answer = await attempt();
  if (isExpiredToken(answer.status, answer.text) && (await refreshSession().catch(() => false))) answer = await attempt();
  if (answer.status < 200 || answer.status >= 300) throw await errorOf(answer.status, answer.text);
  return JSON.parse(answer.text) as T;
}
