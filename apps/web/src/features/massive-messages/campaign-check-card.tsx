import Card from '@mui/material/Card';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api-client';
import { type RealtimeMessage, useRealtimeEvents } from '../../lib/realtime';
import { useSession } from '../../lib/session';
import { useCampaignCheck } from './api';
import { SendCheckPanel } from './send-check-panel';
import { massKeys } from '../../lib/query-keys';

/**
 * A campaign's «Revisión previa» (GET /marketing-campaigns/{id}/check): the same panel as the
 * massive messages' composer — who would get the campaign now (those who already got it are
 * left out, saying so), the line's daily limit and the estimated cost. Read again when one of
 * the campaign's chunks finishes.
 */
export function CampaignCheckCard({ campaignId }: { campaignId: string }) {
  const { companyId } = useSession();
  const queryClient = useQueryClient();
  const check = useCampaignCheck(campaignId);
  useRealtimeEvents((event: RealtimeMessage) => {
    if (event.type !== 'send.progress' || event.send.campaignId !== campaignId) return;
    if (event.send.status !== 'pending' && event.send.status !== 'processing') void queryClient.invalidateQueries({ queryKey: massKeys.campaignCheck(companyId, campaignId) });
  });
  const error = check.isError ? (check.error instanceof ApiError ? check.error.message : 'No se pudo revisar la campaña') : undefined;
  return (
    <Card sx={{ p: 2, mb: 2 }}>
      <SendCheckPanel check={check.data} loading={check.isFetching} error={error} placeholder="Revisando a quién le llegaría la campaña…" />
    </Card>
  );
}
