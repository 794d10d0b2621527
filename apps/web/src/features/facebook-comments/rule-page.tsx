import { type CommentReply, commentReplyModeLabels, commentReplyStatusLabels, commentRuleKindLabels, type CommentRuleKind, resources } from '@mostrador/contract';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ChatIcon from '@mui/icons-material/Chat';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useState } from 'react';
import { Link as RouterLink, useLocation, useParams } from 'react-router';
import { ResourceFormDialog } from '../../components/crud/resource-form-dialog';
import type { ResourceRecord } from '../../components/crud/types';
import { useResourceRecord } from '../../components/crud/use-resource';
import { PageHeader } from '../../components/ui/page-header';
import { usePermissions } from '../../lib/permissions';
import { screen } from './comment-rules-screen';
import { useRuleReplies } from './api';

const when = (iso?: string) => (iso ? new Date(iso).toLocaleString('es-PE', { dateStyle: 'short', timeStyle: 'short' }) : '');

function StatusChip({ reply }: { reply: CommentReply }) {
  const color = reply.status === 'sent' ? 'success' : reply.status === 'failed' ? 'error' : 'default';
  return <Chip size="small" color={color} label={commentReplyStatusLabels[reply.status]} />;
}

function ChatLink({ reply }: { reply: CommentReply }) {
  if (!reply.chatId) return null;
  return (
    <Button size="small" startIcon={<ChatIcon />} component={RouterLink} to={`/chat?${new URLSearchParams({ chatId: reply.chatId })}`} sx={{ whiteSpace: 'nowrap' }}>
      Abrir chat
    </Button>
  );
}

/** One reply as a card (phones). */
function ReplyCard({ reply }: { reply: CommentReply }) {
  return (
    <Card variant="outlined">
      <CardContent sx={{ '&:last-child': { pb: 2 } }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 0.5 }}>
          <Typography sx={{ fontWeight: 600 }}>{reply.authorName}</Typography>
          <StatusChip reply={reply} />
        </Stack>
        <Typography variant="body2" color="text.secondary">
          «{reply.commentText}»
        </Typography>
        {reply.reason ? (
          <Typography variant="body2" color="error" sx={{ mt: 0.5 }}>
            {reply.reason}
          </Typography>
        ) : null}
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mt: 0.5 }}>
          <Typography variant="caption" color="text.secondary">
            {when(reply.sentAt ?? reply.createdAt)}
          </Typography>
          <ChatLink reply={reply} />
        </Stack>
      </CardContent>
    </Card>
  );
}

/**
 * /comment-to-msn/{id} and /ads-messenger/{id} (decision 0049): the rule as it is (editable) and
 * its replies, newest first: who commented what, whether Facebook took the private reply or why
 * not, and the Messenger chat it opened.
 */
export function CommentRulePage() {
  const { id = '' } = useParams();
  const location = useLocation();
  const base = location.pathname.startsWith('/ads-messenger') ? '/ads-messenger' : '/comment-to-msn';
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const permissions = usePermissions();
  const canEdit = permissions.can('chats', 'update');
  const rule = useResourceRecord(resources['comment-rules'], id);
  const replies = useRuleReplies(id);
  const [editing, setEditing] = useState(false);
  const r = rule.data as (ResourceRecord & { name?: string; kind?: CommentRuleKind; postId?: string; adId?: string; keywords?: string[]; replyText?: string; active?: boolean }) | undefined;
  const list = replies.data?.payload ?? [];
  const sent = list.filter((x) => x.status === 'sent').length;
  const failed = list.filter((x) => x.status === 'failed').length;

  return (
    <>
      <Button component={RouterLink} to={base} startIcon={<ArrowBackIcon />} sx={{ mb: 1, ml: -1 }}>
        Volver a las reglas
      </Button>
      <PageHeader
        title={r?.name ?? 'Regla de comentarios'}
        subtitle="La regla y las respuestas privadas que envió por Messenger"
        actions={
          canEdit && r ? (
            <Button variant="contained" onClick={() => setEditing(true)}>
              Editar regla
            </Button>
          ) : undefined
        }
      />
      {rule.isError ? <Alert severity="error">No se pudo cargar la regla.</Alert> : null}
      {rule.isLoading ? <Skeleton variant="rounded" height={140} /> : null}
      {r ? (
        <Card variant="outlined" sx={{ mb: 3 }}>
          <CardContent>
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, mb: 1.5 }}>
              <Chip size="small" label={r.kind ? commentRuleKindLabels[r.kind] : ''} />
              <Chip size="small" color={r.active ? 'success' : 'default'} label={r.active ? 'Activa' : 'Inactiva'} />
              <Chip size="small" variant="outlined" label={r.postId ? `Publicación ${r.postId}` : 'Cualquier publicación'} />
              {r.adId ? <Chip size="small" variant="outlined" label={`Anuncio ${r.adId}`} /> : null}
            </Stack>
            <Typography variant="subtitle2" color="text.secondary">
              Palabras clave
            </Typography>
            <Box sx={{ mb: 1.5 }}>
              {r.keywords?.length ? (
                <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
                  {r.keywords.map((k) => (
                    <Chip key={k} size="small" variant="outlined" label={k} />
                  ))}
                </Stack>
              ) : (
                <Typography variant="body2">Cualquier comentario</Typography>
              )}
            </Box>
            <Typography variant="subtitle2" color="text.secondary">
              Respuesta privada
            </Typography>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
              {r.replyText}
            </Typography>
          </CardContent>
        </Card>
      ) : null}

      <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', mb: 1 }}>
        <Typography variant="h6" component="h2">
          Respuestas enviadas
        </Typography>
        {replies.data ? (
          <Typography variant="body2" color="text.secondary">
            {sent} {sent === 1 ? 'enviada' : 'enviadas'} · {failed} {failed === 1 ? 'fallida' : 'fallidas'}
          </Typography>
        ) : null}
      </Stack>
      {replies.isError ? <Alert severity="error">No se pudieron cargar las respuestas.</Alert> : null}
      {replies.isLoading ? <Skeleton variant="rounded" height={120} /> : null}
      {replies.data && list.length === 0 ? (
        <Alert severity="info">Esta regla aún no respondió ningún comentario. Responde cuando alguien comenta con una de sus palabras clave.</Alert>
      ) : null}
      {list.length > 0 && phone ? (
        <Stack spacing={1}>
          {list.map((reply) => (
            <ReplyCard key={reply._id} reply={reply} />
          ))}
        </Stack>
      ) : null}
      {list.length > 0 && !phone ? (
        <Card variant="outlined">
          <Table size="small" aria-label="Respuestas de la regla">
            <TableHead>
              <TableRow>
                <TableCell>Persona</TableCell>
                <TableCell>Comentario</TableCell>
                <TableCell>Respuesta</TableCell>
                <TableCell>Estado</TableCell>
                <TableCell>Fecha</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {list.map((reply) => (
                <TableRow key={reply._id}>
                  <TableCell>{reply.authorName}</TableCell>
                  <TableCell sx={{ maxWidth: 260 }}>{reply.commentText}</TableCell>
                  <TableCell sx={{ maxWidth: 280 }}>
                    {reply.mode === 'private' ? null : <Typography variant="caption">{commentReplyModeLabels[reply.mode]} · </Typography>}
                    {reply.reason ? (
                      <Typography variant="body2" color="error">
                        {reply.reason}
                      </Typography>
                    ) : (
                      <Typography variant="body2" color="text.secondary" sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
                        {reply.text}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    <StatusChip reply={reply} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(reply.sentAt ?? reply.createdAt)}</TableCell>
                  <TableCell>
                    <ChatLink reply={reply} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      ) : null}
      {r ? <ResourceFormDialog config={screen} record={r} open={editing} onClose={() => setEditing(false)} /> : null}
    </>
  );
}

export default CommentRulePage;
