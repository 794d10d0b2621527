import { DRIVE_MAX_BYTES, type DriveFileOut, type DriveFoldersOut, type DriveKind, type DriveUploadOut, driveLimits, driveTooLarge, type Page } from '@mostrador/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { uploadFile } from '../../lib/file-transfer';
import { driveKeys } from '../../lib/query-keys';

/**
 * Drive's calls (decision 0056): the company's files page by page (search, folder, kind), its
 * folders, an upload with its progress (the file's bytes as the body, its name in the query),
 * rename / move and delete. Every write refreshes the list and the folders.
 */
export interface DriveQuery {
  filter?: string;
  folder?: string;
  kind?: DriveKind;
  page?: number;
  limit?: number;
}

export function useDriveFiles(q: DriveQuery) {
  return useQuery({
    queryKey: driveKeys.files(q),
    queryFn: ({ signal }) =>
      api.get<Page<DriveFileOut>>('/drive/files', { query: { ...q, filter: q.filter?.trim() || undefined }, signal, overlay: false, notify: false }),
    placeholderData: keepPreviousData,
  });
}

export function useDriveFolders() {
  return useQuery({
    queryKey: driveKeys.folders,
    queryFn: ({ signal }) => api.get<DriveFoldersOut>('/drive/folders', { signal, overlay: false, notify: false }),
  });
}

/** What the browser says a file is, for refusing a too-large one before sending it (the server checks the bytes). */
export function driveKindOf(file: File): DriveKind {
  if (file.type.startsWith('image/')) return 'image';
  if (file.type.startsWith('video/')) return 'video';
  if (file.type.startsWith('audio/')) return 'audio';
  return 'document';
}

/** Why a file is refused before it is sent (WhatsApp's limit for its kind, Spanish), or undefined. */
export function driveTooBig(file: File): string | undefined {
  if (file.size > DRIVE_MAX_BYTES) return driveTooLarge('document');
  const kind = driveKindOf(file);
  return file.size > driveLimits[kind] ? driveTooLarge(kind) : undefined;
}

/** Uploads one file; `onProgress` gets the share sent (0–1). */
export function uploadToDrive(file: File, folder: string, onProgress: (sent: number) => void, signal?: AbortSignal) {
  const query = new URLSearchParams({ name: file.name, ...(folder ? { folder } : {}) });
  return uploadFile<DriveUploadOut>(`/drive/files?${query}`, file, { contentType: file.type || 'application/octet-stream', onProgress, signal });
}

export function useDriveInvalidate() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: driveKeys.all });
}

export function useUpdateDriveFile() {
  const invalidate = useDriveInvalidate();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; name?: string; folder?: string }) => api.patch<DriveFileOut>(`/drive/files/${id}`, body, { success: 'Cambios guardados' }),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteDriveFile() {
  const invalidate = useDriveInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ msg: string }>(`/drive/files/${id}`, { success: true }),
    onSuccess: () => invalidate(),
  });
}
