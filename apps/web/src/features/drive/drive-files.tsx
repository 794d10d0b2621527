import { type DriveFileOut, type DriveFoldersOut, type DriveKind, driveKindLabels, formatBytes } from '@mostrador/contract';
import AudioFileOutlined from '@mui/icons-material/AudioFileOutlined';
import SearchIcon from '@mui/icons-material/Search';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import TableChartOutlined from '@mui/icons-material/TableChartOutlined';
import VideoFileOutlined from '@mui/icons-material/VideoFileOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import InputAdornment from '@mui/material/InputAdornment';
import type { SxProps, Theme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';

/** The icon of a file's type (a PDF and a spreadsheet look like one). */
export function DriveIcon({ file, size = 40 }: { file: Pick<DriveFileOut, 'kind' | 'mimeType'>; size?: number }) {
  const sx = { fontSize: size, color: 'text.secondary' } as const;
  if (file.mimeType === 'application/pdf') return <PictureAsPdfOutlined sx={{ ...sx, color: '#C62828' }} />;
  if (file.mimeType.includes('spreadsheet') || file.mimeType === 'text/csv') return <TableChartOutlined sx={{ ...sx, color: '#2E7D32' }} />;
  const icons: Record<DriveKind, typeof ImageOutlined> = { image: ImageOutlined, video: VideoFileOutlined, audio: AudioFileOutlined, document: DescriptionOutlined };
  const Icon = icons[file.kind];
  return <Icon sx={sx} />;
}

/** A square preview: the image itself (from its public address), else the type's icon. */
export function DriveThumb({ file, height = 120 }: { file: DriveFileOut; height?: number }) {
  return (
    <Box sx={{ height, display: 'grid', placeItems: 'center', bgcolor: 'action.hover', overflow: 'hidden', borderRadius: 1 }}>
      {file.kind === 'image' ? (
        <Box component="img" src={file.path} alt="" loading="lazy" sx={{ width: '100%', height: '100%', objectFit: 'cover' }} />
      ) : (
        <DriveIcon file={file} size={Math.round(height / 2.5)} />
      )}
    </Box>
  );
}

/** «Imagen · 1,2 MB». */
export const describeFile = (file: DriveFileOut) => `${driveKindLabels[file.kind]} · ${formatBytes(file.size)}`;

/** The folder chips: all, each folder with its count, and the files with none. */
export function FolderChips({
  folders,
  value,
  onChange,
  extra,
  extraFolders = [],
}: {
  folders: DriveFoldersOut['payload'];
  /** undefined: all folders; '': the files with none. */
  value: string | undefined;
  onChange: (folder: string | undefined) => void;
  extra?: ReactNode;
  /** Folders named here before any file is in them (a new folder). */
  extraFolders?: string[];
}) {
  const named = [...folders.filter((f) => f.name !== ''), ...extraFolders.filter((n) => !folders.some((f) => f.name === n)).map((name) => ({ name, files: 0 }))];
  const loose = folders.find((f) => f.name === '');
  return (
    <Box role="group" aria-label="Carpetas" sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
      <Chip label="Todas" color={value === undefined ? 'primary' : 'default'} variant={value === undefined ? 'filled' : 'outlined'} onClick={() => onChange(undefined)} aria-pressed={value === undefined} />
      {named.map((f) => (
        <Chip
          key={f.name}
          label={`${f.name} (${f.files})`}
          color={value === f.name ? 'primary' : 'default'}
          variant={value === f.name ? 'filled' : 'outlined'}
          onClick={() => onChange(f.name)}
          aria-pressed={value === f.name}
        />
      ))}
      {loose && (
        <Chip label={`Sin carpeta (${loose.files})`} color={value === '' ? 'primary' : 'default'} variant={value === '' ? 'filled' : 'outlined'} onClick={() => onChange('')} aria-pressed={value === ''} />
      )}
      {extra}
    </Box>
  );
}

/** The search by name of /drive and of the «Desde Drive» picker. */
export function DriveSearchField({ value, onChange, sx }: { value: string; onChange: (value: string) => void; sx?: SxProps<Theme> }) {
  return (
    <TextField
      size="small"
      placeholder="Buscar por nombre"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      sx={sx}
      slotProps={{
        htmlInput: { 'aria-label': 'Buscar en Drive' },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
